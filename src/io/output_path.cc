#include "seedrl/io/output_path.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "seedrl/io/file_kind.h"

namespace seedrl {

namespace {

[[noreturn]] void refuse(const std::string& flag, const std::string& why) {
  throw std::invalid_argument(flag + ": " + why);
}

const char* write_kind_of(mode_t mode) {
  const char* kind = special_file_kind(mode);
  return kind != nullptr ? kind : "a special file";
}

// Where the file would be created: the writers put their temporary file
// there too.
void check_parent(const std::string& flag, const std::string& path) {
  if (path.back() == '/') refuse(flag, path + " names a directory (it ends in /), not a file");
  std::string parent = std::filesystem::path(path).parent_path().string();
  if (parent.empty()) parent = ".";
  struct stat st {};
  if (::stat(parent.c_str(), &st) != 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) refuse(flag, "cannot write " + path + ": no directory " + parent);
    refuse(flag, "cannot write " + path + ": " + parent + ": " + std::strerror(error));
  }
  if (!S_ISDIR(st.st_mode)) refuse(flag, "cannot write " + path + ": " + parent + " is not a directory");
}

}  // namespace

void check_output_path(const std::string& flag, const std::string& path, const std::vector<KeptFile>& kept) {
  if (path.empty()) refuse(flag, "empty file name");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int error = errno;
    if (error != ENOENT && error != ENOTDIR) refuse(flag, "cannot write " + path + ": " + std::strerror(error));
    // Missing (a dangling symlink too: the rename replaces the link itself).
    check_parent(flag, path);
    return;
  }
  if (!S_ISREG(st.st_mode)) refuse(flag, path + " is " + write_kind_of(st.st_mode) + ", not a file to write");
  for (const KeptFile& k : kept) {
    std::error_code ec;  // a kept file that does not exist cannot be this one
    if (std::filesystem::equivalent(path, k.path, ec))
      refuse(flag, path + " is the same file as " + k.what + " " + k.path + "; the output would replace it");
  }
}

}  // namespace seedrl
