#include "seedrl/io/file_kind.h"

#include <sys/stat.h>

namespace seedrl {

const char* special_file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return nullptr;
}

}  // namespace seedrl
