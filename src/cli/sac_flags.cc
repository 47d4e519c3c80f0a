#include "seedrl/cli/sac_flags.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <CLI/CLI.hpp>

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
      ->transform(number_or_auto())
      ->default_str("auto");
  cmd.add_flag("--learn-temperature,!--fixed-temperature", s.learn_temperature,
               "SAC: learn the temperature towards --target-entropy (--fixed-temperature keeps --init-temperature; "
               "not with --target-entropy)")
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

namespace {

// Whether `flag` counts for the checks below, as for check_algorithm_flags:
// given on the command line, or by a --config file (`where` is then the
// file's "PATH: "), not by a resumed run's saved settings.
bool counts(const CLI::App& cmd, const std::string& flag, const std::set<std::string>& typed,
            const std::string& config_file, std::string& where) {
  if (!flag_given(cmd, flag)) return false;
  if (typed.count(flag) > 0) return true;
  where = config_file.empty() ? "" : config_file + ": ";
  return !config_file.empty();
}

}  // namespace

void check_sac_flags(const CLI::App& cmd, const TrainConfig& c, const std::set<std::string>& typed,
                     const std::string& config_file) {
  if (c.algo != "sac") return;
  std::string where;
  // The actor and the critics are MLPs whatever --model says.
  if (counts(cmd, "--model", typed, config_file, where) && c.model.torso != "auto" && c.model.torso != "mlp")
    throw std::invalid_argument(where +
                                "--model: SAC's networks are MLPs (--hidden, --activation); --algo sac would "
                                "ignore --model " +
                                c.model.torso);
  // CLI11 lets the last of --learn-temperature and --fixed-temperature win;
  // given both, the user meant one of them and would not know which ran.
  if (const CLI::Option* learn = cmd.get_option_no_throw("--learn-temperature"); learn != nullptr) {
    bool on = false, off = false;
    for (const std::string& value : learn->results()) (CLI::detail::to_flag_value(value) > 0 ? on : off) = true;
    if (on && off)
      throw std::invalid_argument(
          "--learn-temperature, --fixed-temperature: both given; the one given last would silently win");
  }
  // A fixed temperature never reads the target: refused when either of the
  // two was given now (`--target-entropy auto`, the default, is no target).
  std::string entropy_where, fixed_where;
  const bool entropy_counts = counts(cmd, "--target-entropy", typed, config_file, entropy_where);
  const bool fixed_counts = counts(cmd, "--learn-temperature", typed, config_file, fixed_where);
  if (!c.sac.learn_temperature && !std::isnan(c.sac.target_entropy) && flag_given(cmd, "--target-entropy") &&
      (entropy_counts || fixed_counts))
    throw std::invalid_argument((entropy_counts ? entropy_where : fixed_where) +
                                "--target-entropy: --fixed-temperature keeps --init-temperature and would ignore it");
}

}  // namespace seedrl
