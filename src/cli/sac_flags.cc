#include "seedrl/cli/sac_flags.h"

#include <cstdint>

#include "seedrl/cli/config_file.h"
#include "seedrl/cli/validators.h"

namespace seedrl {

void add_sac_flags(CLI::App& cmd, TrainConfig& c) {
  auto& s = c.sac;
  cmd.add_option("--tau", s.tau, "SAC: Polyak rate of the target critics")->check(in_range(0.0, 1.0));
  cmd.add_option("--init-temperature", s.initial_temperature, "SAC: entropy temperature alpha at the start")
      ->check(positive());
  cmd.add_option("--target-entropy", s.target_entropy,
                 "SAC: entropy the learned temperature steers the policy towards (auto: minus the action dimensions)")
      ->default_str("auto");
  cmd.add_flag("--learn-temperature,!--fixed-temperature", s.learn_temperature,
               "SAC: learn the temperature towards --target-entropy (--fixed-temperature keeps --init-temperature)")
      ->default_str(s.learn_temperature ? "true" : "false");
  cmd.add_option("--random-steps", s.random_steps, "SAC: env steps at the start acting uniformly over the action box")
      ->check(in_range(std::int64_t{0}, std::int64_t{1} << 40));
  cmd.add_option("--critic-threads", s.critic_threads,
                 "SAC: threads of a CPU learner for the twin critics (2: each critic beside the other; each thread "
                 "uses --torch-threads)")
      ->check(in_range(1, 2));
}

void apply_sac_defaults(const CLI::App& cmd, TrainConfig& c) {
  if (c.algo != "sac") return;
  using D = SacSharedDefaults;
  if (!flag_given(cmd, "--learning-rate")) c.learner.optimizer.learning_rate = D::learning_rate;
  if (!flag_given(cmd, "--discount")) c.learner.loss.discount = D::discount;
  if (!flag_given(cmd, "--batch-size")) c.learner.batch_size = D::batch_size;
  if (!flag_given(cmd, "--hidden")) c.model.hidden = {D::hidden, D::hidden};
  if (!flag_given(cmd, "--n-step")) c.r2d2.n_step = D::n_step;
  if (!flag_given(cmd, "--replay-capacity")) c.r2d2.replay_capacity = D::replay_capacity;
  if (!flag_given(cmd, "--min-replay")) c.r2d2.min_replay = D::min_replay;
  if (!flag_given(cmd, "--replay-ratio")) c.r2d2.replay_ratio = D::updates_per_step * c.learner.batch_size;
  // Transitions waiting for the replay: a few, not two batches' worth, so
  // that the actors act at most a few updates behind the learner.
  if (!flag_given(cmd, "--queue-capacity")) c.queue_capacity = 4;
  // One env, as the paper's agent: the learner, not the env, bounds SAC.
  if (!flag_given(cmd, "--actors")) c.actors = 1;
  if (!flag_given(cmd, "--envs-per-actor")) c.envs_per_actor = 1;
}

}  // namespace seedrl
