// MuJoCo locomotion environments register here (filled in by the environments work).
#include "seedrl/env/registry.h"

namespace seedrl {
void register_mujoco(EnvRegistry&) {}
}  // namespace seedrl
