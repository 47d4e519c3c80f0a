#include "seedrl/env/mujoco/mujoco_messages.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#if SEEDRL_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace seedrl {

#if SEEDRL_HAVE_MUJOCO
namespace {

std::atomic<int> warnings{0};

[[noreturn]] void on_error(const char* msg) {
  std::fprintf(stderr, "seedrl: error: MuJoCo: %s\n", msg);
  std::fflush(nullptr);
  std::_Exit(1);
}

void on_warning(const char* msg) {
  const int n = ++warnings;
  if (n <= kShownWarnings) std::fprintf(stderr, "seedrl: warning: MuJoCo: %s\n", msg);
  if (n == kShownWarnings)
    std::fprintf(stderr, "seedrl: warning: MuJoCo: further warnings of this process are not shown\n");
}

}  // namespace
#endif

void install_mujoco_messages() {
#if SEEDRL_HAVE_MUJOCO
  static std::once_flag once;
  std::call_once(once, [] {
    mju_user_error = on_error;
    mju_user_warning = on_warning;
  });
#endif
}

}  // namespace seedrl
