#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "seedrl/cli/algorithm_flags.h"
#include "seedrl/cli/commands.h"
#include "seedrl/cli/config_file.h"
#include "seedrl/cli/env_defaults.h"
#include "seedrl/cli/env_flags.h"
#include "seedrl/cli/learner_process_flags.h"
#include "seedrl/cli/pipeline_flags.h"
#include "seedrl/cli/r2d2_flags.h"
#include "seedrl/cli/replay_pacing.h"
#include "seedrl/cli/sac_flags.h"
#include "seedrl/cli/validators.h"
#include "seedrl/trainer/train.h"

namespace seedrl {

CommandRunner add_train_command(CLI::App& app) {
  auto config = std::make_shared<TrainConfig>();
  TrainConfig& c = *config;
  c.actors = default_actors();  // shown in --help as this machine's default
  auto& l = c.learner;
  CLI::App* cmd = app.add_subcommand("train", "Train an agent (actors, central inference and learner in this process)");
  cmd->option_defaults()->always_capture_default();
  auto config_file = std::make_shared<std::string>();
  cmd->add_option("--config", *config_file, "TOML file whose keys are the flag names (e.g. actors = 64)")
      ->check(CLI::ExistingFile);

  cmd->add_option("--env", c.env, "Environment name (see `seedrl envs`)")->transform(env_name_validator());
  cmd->add_option("--actors", c.actors, "Actor threads (default suits this machine; 0 only with --remote-actors)")
      ->check(in_range(0, 1 << 20));
  add_pipeline_flags(*cmd, c);
  cmd->add_option("--replica-checksum-every", c.replica_checksum_every,
                  "V-trace and R2D2: learner updates between parameter checks of the data-parallel replicas (0: never)")
      ->check(in_range(0, 1 << 30));

  cmd->add_option("--max-frames", l.max_frames, "Environment steps to train for")->check(positive<std::int64_t>());
  cmd->add_option("--optimizer", l.optimizer.name, "adam | rmsprop")->check(CLI::IsMember({"adam", "rmsprop"}));
  cmd->add_option("--learning-rate", l.optimizer.learning_rate, "Initial learning rate (decays linearly to 0)")
      ->check(positive());
  cmd->add_option("--adam-eps", l.optimizer.adam_eps, "Adam epsilon")->check(positive());
  cmd->add_option("--rmsprop-alpha", l.optimizer.rmsprop_alpha, "V-trace and R2D2: RMSProp smoothing")
      ->check(in_range(0.0, 1.0));
  cmd->add_option("--rmsprop-eps", l.optimizer.rmsprop_eps, "V-trace and R2D2: RMSProp epsilon")->check(positive());
  cmd->add_option("--rmsprop-momentum", l.optimizer.rmsprop_momentum, "V-trace and R2D2: RMSProp momentum")
      ->check(in_range(0.0, 1.0));
  cmd->add_option("--max-grad-norm", l.optimizer.max_grad_norm,
                  "V-trace and R2D2: global gradient-norm clip (0: off; SAC clips nothing)")
      ->check(non_negative());
  cmd->add_option("--discount", l.loss.discount, "Discount factor gamma")->check(in_range(0.0, 1.0));
  cmd->add_option("--lambda", l.loss.vtrace.lambda, "V-trace: lambda of the targets")->check(in_range(0.0, 1.0));
  cmd->add_option("--rho-bar", l.loss.vtrace.rho_bar, "V-trace: importance-weight clip rho-bar")->check(positive());
  cmd->add_option("--c-bar", l.loss.vtrace.c_bar, "V-trace: trace clip c-bar")->check(positive());
  cmd->add_option("--pg-rho-bar", l.loss.vtrace.pg_rho_bar, "V-trace: policy-gradient importance-weight clip")
      ->check(positive());
  cmd->add_option("--ppo-clip", l.loss.ppo_clip,
                  "V-trace: policy gradient as PPO's clipped surrogate with this clip on pi/mu (0: off; APPO)")
      ->check(in_range(0.0, 1.0));
  cmd->add_flag("--ppo-decoupled,!--no-ppo-decoupled", l.loss.ppo_decoupled,
                "V-trace: with --ppo-clip, the ratio against the weights before each batch's update, weighted by "
                "min(--pg-rho-bar, their ratio to the acting policy): stale unrolls still teach (decoupled PPO)");
  cmd->add_flag("--fixed-targets,!--no-fixed-targets", l.loss.fixed_targets,
                "V-trace: the value targets and advantages computed once per batch from the weights before its first "
                "step and held through its --epochs and --minibatches (as PPO computes GAE once per rollout)");
  cmd->add_flag(
      "--normalize-advantages,!--no-normalize-advantages", l.loss.normalize_advantages,
      "V-trace: scale the policy gradient's advantages to mean 0, std 1 over each batch (as PPO and APPO do)");
  cmd->add_option("--baseline-cost", l.loss.baseline_cost, "V-trace: weight of the value loss")->check(non_negative());
  cmd->add_option("--entropy-cost", l.loss.entropy_cost, "V-trace: weight of the entropy bonus (cartpole: 0.001)")
      ->check(non_negative());
  cmd->add_option("--entropy-cost-final", l.loss.entropy_cost_final,
                  "V-trace: the entropy bonus's weight at --max-frames, reached linearly from --entropy-cost "
                  "(unset: constant)")
      ->check(non_negative());
  cmd->add_option("--reward-clip", l.loss.reward_clip, "Clip rewards to [-c, c] (0: off)")->check(non_negative());
  cmd->add_option("--reward-scale", l.loss.reward_scale,
                  "Multiply rewards by this in the learner, after clipping (cartpole: 0.1)")
      ->check(positive());

  auto target_return = std::make_shared<double>(std::numeric_limits<double>::quiet_NaN());
  cmd->add_option("--target-return", *target_return,
                  "Record the frames, wall time and learner steps at which the mean return of the last 100 "
                  "episodes first reaches this (summary.json, metrics, the report's marker)")
      ->default_str("none");
  cmd->add_flag("--stop-at-target", c.stop_at_target,
                "End the run, with its checkpoint, once --target-return is reached");
  cmd->add_option("--logdir", c.logdir, "Directory for metrics, TensorBoard events and checkpoints");
  cmd->add_option("--checkpoint-every-s", c.checkpoint_every_s, "Seconds between checkpoints (0: only at the end)")
      ->check(non_negative());
  cmd->add_flag("--resume", c.resume, "Continue from the checkpoint in --logdir");
  cmd->add_option("--init-checkpoint", c.init_checkpoint,
                  "Start the network from another run's checkpoint (fine-tuning, a curriculum): the same "
                  "algorithm and network shapes; the optimizer, counters and schedules start afresh (ignored "
                  "with --resume)");
  cmd->add_option("--log-interval-s", c.log_interval_s, "Seconds between metrics lines")->check(positive());
  cmd->add_option("--report-every-s", c.report_every_s,
                  "Seconds between refreshes of LOGDIR/report.html (seedrl report; 0: only at the end)")
      ->check(non_negative());
  cmd->add_option("--record-every-s", c.record_every_s,
                  "Seconds between videos of the latest checkpoint's policy in LOGDIR/video.gif, one more at the "
                  "end (0: off)")
      ->check(non_negative());
  cmd->add_option("--eval-every-s", c.eval_every_s,
                  "V-trace: seconds between evaluations of the latest weights on an env of their own, and one "
                  "at the end; the best is kept as LOGDIR/best.pt (0: off)")
      ->check(in_range(0.0, 1e9));
  cmd->add_option("--eval-episodes", c.eval_episodes, "V-trace: whole episodes per evaluation (--eval-every-s)")
      ->check(in_range(1, 1 << 20));
  cmd->add_flag("--eval-greedy,!--no-eval-greedy", c.eval_greedy,
                "V-trace: evaluations take the most likely action (default: sample, as training does)")
      ->default_str(c.eval_greedy ? "true" : "false");
  cmd->add_option(
      "--dashboard", c.dashboard,
      "Serve the report live on HOST:PORT (PORT alone: loopback; port 0: a free one, in LOGDIR/dashboard.url)");
  cmd->add_option("--remote-actors", c.remote_actors,
                  "Also serve `seedrl actor` processes on HOST:PORT (PORT alone: loopback only)");
  cmd->add_option("--max-remote-envs", c.max_remote_envs, "Env slots reserved for remote actors")
      ->check(in_range(1, 1 << 20));
  cmd->add_option("--max-remote-connections", c.max_remote_connections, "Open remote-actor connections at most")
      ->check(in_range(1, 1 << 16));
  cmd->add_option(
      "--token-file", c.token_file,
      "Shared secret remote actors and the dashboard's page URL (?token=) must present (required beyond loopback)");
  cmd->add_option("--remote-timeout-s", c.remote_timeout_s, "Silence that ends a remote actor's connection")
      ->check(in_range(0.1, 3600.0));
  add_learner_process_flags(*cmd, c);

  add_r2d2_learner_flags(*cmd, c);
  auto& r = c.r2d2;
  cmd->add_option("--epsilon", r.epsilon, "R2D2: base exploration epsilon of the Ape-X schedule")
      ->check(in_range(0.0, 1.0));
  cmd->add_option("--epsilon-alpha", r.epsilon_alpha, "R2D2: alpha of eps_i = eps^(1 + alpha i / (N - 1))")
      ->check(non_negative());
  cmd->add_option("--eval-envs", r.eval_envs, "R2D2: extra envs acting with --eval-epsilon, reported apart")
      ->check(in_range(0, 1 << 16));
  cmd->add_option("--eval-epsilon", r.eval_epsilon, "R2D2: epsilon of the evaluation envs")->check(in_range(0.0, 1.0));
  add_sac_flags(*cmd, c);
  check_number_options(*cmd);

  return [cmd, config, config_file, target_return]() -> int {
    if (!cmd->parsed()) return -1;
    read_launcher_variables(*cmd);
    const std::set<std::string> typed = given_flags(*cmd);
    if (!config_file->empty()) {
      apply_config_file(*cmd, *config_file);
    } else if (config->resume) {
      // The run's own settings, written at its start; the command line wins.
      const std::filesystem::path dir(config->logdir);
      const std::string saved = (dir / "config.toml").string();
      std::error_code ec;
      // Every run writes it at its start, so a checkpoint without it is a run
      // whose settings are lost: resuming on the defaults would change them
      // in silence. (Without a checkpoint, --resume says that instead.)
      if (!std::filesystem::is_regular_file(saved, ec) && std::filesystem::exists(dir / "checkpoint.pt", ec))
        throw std::invalid_argument("--resume: " + saved +
                                    " is missing or not a file; it holds the run's settings, written at its start: "
                                    "restore it, or give the run's settings with --config FILE");
      if (std::filesystem::is_regular_file(saved, ec)) {
        std::string given;
        for (const CLI::Option* opt : cmd->get_options())
          if (opt->count() > 0 && !opt->get_lnames().empty() && opt->get_lnames().front() != "resume" &&
              opt->get_lnames().front() != "logdir")
            given += " --" + opt->get_lnames().front();
        apply_config_file(*cmd, saved);
        config->start_notes.push_back("--resume: settings from " + saved +
                                      (given.empty() ? "" : "; given on the command line instead:" + given));
      }
    }
    check_algorithm_flags(*cmd, config->algo, typed, *config_file);
    check_sac_flags(*cmd, *config, typed, *config_file);
    check_env_family_flags(*cmd, config->env);
    if (flag_given(*cmd, "--target-return")) config->target_return = *target_return;
    if (config->stop_at_target && !config->target_return)
      throw std::invalid_argument("--stop-at-target: give the return to stop at with --target-return");
    config->settings_toml = given_settings_toml(*cmd);
    apply_r2d2_defaults(*cmd, *config);
    apply_sac_defaults(*cmd, *config);
    apply_env_defaults(*cmd, *config);
    check_replay_pacing(*cmd, *config);
    return train(*config);
  };
}

}  // namespace seedrl
