// MinAtar games register here (filled in by the environments work).
#include "seedrl/env/registry.h"

namespace seedrl {
void register_minatar(EnvRegistry&) {}
}  // namespace seedrl
