// The file a user names for a command to write (export -o, eval and play
// --record, report -o, bench --json), checked before the command does any
// work. The writers replace a file by renaming a temporary file over it
// (io/replace_file.h): given /dev/null that would put a regular file in the
// device's place, and given the command's own checkpoint it would destroy
// what the command reads. An existing regular file that is not an input is
// replaced, as the flag says.
#pragma once

#include <string>
#include <vector>

namespace seedrl {

// A file the command reads, or must leave alone (a run's own files), and how
// a refusal names it ("--checkpoint", "the run file").
struct KeptFile {
  std::string path;
  std::string what;
};

// Throws std::invalid_argument "<flag>: ...", one line naming the path, when
// `path` is empty; exists and is not a regular file (a directory, a device,
// a FIFO or a socket, symlinks followed); is the same file as one of `kept`
// (however spelled: a symlink, a hard link, dir/../dir/file); or would be
// written in a directory that does not exist.
void check_output_path(const std::string& flag, const std::string& path, const std::vector<KeptFile>& kept);

}  // namespace seedrl
