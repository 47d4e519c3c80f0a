#include "seedrl/cli/env_flags.h"

#include "seedrl/cli/validators.h"

namespace seedrl {

void add_env_option_flags(CLI::App& cmd, EnvOptions& o) {
  cmd.add_option("--sticky-action-prob", o.sticky_action_prob, "MinAtar sticky-action probability")
      ->check(in_range(0.0, 1.0));
  cmd.add_option("--difficulty-ramping", o.difficulty_ramping, "MinAtar difficulty ramping");
  cmd.add_option("--action-repeat", o.action_repeat, "Repeat each action this many env steps")
      ->check(in_range(1, 1000));
  cmd.add_option("--frame-stack", o.frame_stack, "Stack the last k observations")->check(in_range(1, 64));
  cmd.add_option("--time-limit", o.time_limit, "Truncate episodes after this many steps (0: the env's own)")
      ->check(in_range(0, 1 << 30));
}

}  // namespace seedrl
