// What a path that is not a regular file is, in words for an error line:
// "a directory", "a FIFO", "a socket", "a device"; nullptr for any other
// kind (a regular file among them). Shared by the input and output checks.
#pragma once

#include <sys/types.h>

namespace seedrl {

const char* special_file_kind(mode_t mode);

}  // namespace seedrl
