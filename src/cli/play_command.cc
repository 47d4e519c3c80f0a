#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/cli/env_flags.h"
#include "seedrl/cli/play_output.h"
#include "seedrl/cli/validators.h"
#include "seedrl/io/output_path.h"
#include "seedrl/trainer/evaluate.h"
#include "seedrl/trainer/run_directory.h"
#include "seedrl/util/signal_watcher.h"
#include "seedrl/video/gif_recorder.h"

namespace seedrl {

CommandRunner add_play_command(CLI::App& app) {
  struct Options {
    std::string env = "cartpole";
    EnvOptions env_options;
    std::string policy = "random";
    int episodes = 100;
    std::uint64_t seed = 0;
    bool json = false;
    bool greedy = false;
    bool render = false;
    std::string record;
    long record_max_frames = kDefaultRecordMaxFrames;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("play", "Run episodes without training and print return statistics");
  cmd->option_defaults()->always_capture_default();
  CLI::Option* env_opt = cmd->add_option("--env", o->env, "Environment name (a checkpoint policy brings its own)")
                             ->transform(env_name_validator());
  const std::size_t flags_before = cmd->get_options().size();
  add_env_option_flags(*cmd, o->env_options);
  std::set<std::string> env_flag_names;
  for (std::size_t i = flags_before; i < cmd->get_options().size(); ++i)
    env_flag_names.insert(cmd->get_options()[i]->get_name());
  cmd->add_option("--policy", o->policy, "random | const:K | checkpoint:PATH");
  cmd->add_option("--episodes", o->episodes, "Episodes to play")->check(in_range(1, 1 << 24));
  cmd->add_option("--seed", o->seed, "Seed of the environment (and of a random policy)");
  cmd->add_flag("--greedy", o->greedy, "With a checkpoint: take the most likely action instead of sampling");
  cmd->add_flag("--json", o->json, "Print one JSON object instead of a line");
  cmd->add_flag("--render", o->render,
                "Draw every observation as text on stderr, after a legend (images: one letter per cell "
                "for the highest channel set, or shades; vectors: named values), with the action by name "
                "and the reward");
  add_record_flags(*cmd, o->record, o->record_max_frames);
  check_number_options(*cmd);
  return [cmd, o, env_opt, env_flag_names]() -> int {
    if (!cmd->parsed()) return -1;
    const bool from_checkpoint = o->policy.rfind("checkpoint:", 0) == 0;
    const std::string path = from_checkpoint ? o->policy.substr(11) : "";
    // Before the env or the policy: the recording is written at the end.
    if (!o->record.empty())
      check_output_path("--record", o->record,
                        from_checkpoint ? checkpoint_and_run_files(path, "--policy") : std::vector<KeptFile>{});
    SignalWatcher stop_watcher(exit_on_stop_signal);
    EnvPtr env;
    PlayPolicy policy;
    if (from_checkpoint) {
      // The reader would fail with "basic_filebuf::underflow error reading the
      // file: Is a directory", naming neither the flag nor the file.
      if (std::filesystem::is_directory(path))
        throw std::invalid_argument("--policy: checkpoint:" + path + " is a directory, not a checkpoint file");
      // The policy was trained on its run's environment: a flag that would
      // change it (observation, frame stack, wrappers) is refused rather than
      // ignored. Paths on this machine and the Football score still apply.
      for (const CLI::Option* flag : cmd->get_options()) {
        const std::string name = flag->get_name();
        if (flag->count() == 0 || env_flag_names.count(name) == 0 || machine_env_flag_names().count(name) > 0) continue;
        throw std::invalid_argument(
            fmt::format("{0}: a checkpoint:PATH policy plays the environment its run trained on; leave {0} out "
                        "(with a checkpoint only {1} apply)",
                        name, fmt::join(machine_env_flag_names(), ", ")));
      }
      CheckpointPolicy p = load_checkpoint_policy(path, o->seed, o->greedy);
      if (env_opt->count() > 0 && o->env != p.config.env)
        throw std::invalid_argument("--env: " + o->env + " differs from the checkpoint's environment " + p.config.env);
      check_env_family_flags(*cmd, p.config.env);
      const EnvOptions env_options = with_machine_env_options(p.config.env_options, o->env_options, *cmd);
      env = EnvRegistry::builtin().make(p.config.env, env_options);
      policy = std::move(p.policy);
    } else {
      check_env_family_flags(*cmd, o->env);
      env = EnvRegistry::builtin().make(o->env, o->env_options);
      policy = make_simple_policy(o->policy, env->spec().action, o->seed);
    }
    std::unique_ptr<GifRecorder> recorder;
    if (!o->record.empty()) recorder = std::make_unique<GifRecorder>(o->record, o->record_max_frames);
    const PlayStats s = play_episodes(*env, policy, o->episodes, o->seed, o->render ? &std::cerr : nullptr,
                                      recorder ? recorder->sink() : FrameSink{});
    if (recorder) {
      const int frames = recorder->finish();
      // Not with --json, whose output is the one JSON document.
      if (!o->json)
        spdlog::info("--record: wrote {} frames to {}", frames, std::filesystem::absolute(o->record).string());
    }
    print_play_stats(s, o->json);
    return 0;
  };
}

}  // namespace seedrl
