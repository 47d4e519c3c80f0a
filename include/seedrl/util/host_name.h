// This machine's name, as logs, peers and file names show it.
#pragma once

#include <string>

namespace seedrl {

// gethostname(2), or "localhost" where the system gives none.
std::string host_name();

}  // namespace seedrl
