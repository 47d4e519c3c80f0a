// Replaces a file's contents atomically: written to a temporary file beside
// it, synced, then renamed over it. A reader sees the old file or the new
// one, never half of one; a failed write (a full disk) leaves the old one.
#pragma once

#include <string>
#include <string_view>

namespace seedrl {

// Throws std::system_error naming the file and the reason. The temporary
// file is `path`.tmp<pid>, so that two writers of one file do not share it.
void replace_file(const std::string& path, std::string_view contents);
// The same through the temporary file `tmp` (beside `path`).
void replace_file_via(const std::string& path, const std::string& tmp, std::string_view contents);

}  // namespace seedrl
