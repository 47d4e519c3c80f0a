// `seedrl actor`: steps environments on this machine for a learner elsewhere
// (`seedrl train --remote-actors`). Inference and learning stay on the learner.
#include <netdb.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "seedrl/cli/commands.h"
#include "seedrl/cli/config_file.h"
#include "seedrl/cli/env_flags.h"
#include "seedrl/cli/validators.h"
#include "seedrl/net/protocol.h"
#include "seedrl/net/remote_actor_runner.h"
#include "seedrl/util/signal_watcher.h"

namespace seedrl {
namespace {

// The runner retries a learner it cannot reach, forever, as it should while
// the learner restarts; but a host name that does not exist never will: refuse
// it up front. A temporary failure (EAI_AGAIN: no DNS server yet) is left to
// the runner's retries.
void check_host_resolves(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (found != nullptr) ::freeaddrinfo(found);
  bool permanent = rc == EAI_NONAME || rc == EAI_FAIL;
#ifdef EAI_NODATA
  permanent |= rc == EAI_NODATA;  // the name exists but has no address
#endif
  if (permanent)
    throw std::invalid_argument(fmt::format("--connect: cannot resolve host '{}': {}", host, ::gai_strerror(rc)));
}

}  // namespace

CommandRunner add_actor_command(CLI::App& app) {
  struct Options {
    std::string connect;
    std::string config;
    std::string token_file;
    double timeout_s = 30;
    double connect_timeout_s = 60;
    net::RemoteActorsConfig runner;
  };
  auto o = std::make_shared<Options>();
  net::RemoteActorsConfig& r = o->runner;
  CLI::App* cmd = app.add_subcommand("actor", "Step environments here for a learner started with --remote-actors");
  cmd->option_defaults()->always_capture_default();
  cmd->add_option("--connect", o->connect, "The learner's HOST:PORT")->required();
  cmd->add_option("--env", r.env, "Environment name (must match the learner's spec)")->transform(env_name_validator());
  add_env_option_flags(*cmd, r.env_options);
  // --config takes these from the learner's file: the env and its settings, which the learner checks.
  auto env_keys = std::make_shared<std::set<std::string>>();
  for (const CLI::Option* opt : cmd->get_options())
    for (const std::string& name : opt->get_lnames())
      if (name != "connect" && name != "help") env_keys->insert("--" + name);
  cmd->add_option("--config", o->config,
                  "The learner's TOML config: its env and env settings (flags given here win; its other keys, "
                  "the learner's, are ignored)");
  cmd->add_option("--actors", r.actors, "Actor threads (one connection each)")->check(in_range(1, 4096));
  cmd->add_option("--envs-per-actor", r.envs_per_actor, "Environments per actor thread (one round trip per step)")
      ->check(in_range(1, 65536));
  cmd->add_option("--token-file", o->token_file, "File holding the learner's shared secret");
  cmd->add_option("--seed", r.seed, "Seed for the environments");
  cmd->add_option("--timeout-s", o->timeout_s, "Silence from the learner that ends a connection")
      ->check(in_range(0.1, 3600.0));
  cmd->add_option("--connect-timeout-s", o->connect_timeout_s,
                  "Give up (exit 1) after this long without a working connection to the learner, retrying "
                  "with backoff meanwhile (0: retry for ever)")
      ->check(in_range(0.0, 1e6));
  check_number_options(*cmd);
  return [cmd, o, env_keys]() -> int {
    if (!cmd->parsed()) return -1;
    if (!o->config.empty()) apply_config_file_subset(*cmd, o->config, *env_keys);
    net::RemoteActorsConfig config = o->runner;
    check_env_family_flags(*cmd, config.env);
    const net::HostPort hp = net::parse_host_port(o->connect, "--connect");
    config.host = hp.host;
    config.port = hp.port;
    if (config.port == 0) throw std::invalid_argument("--connect: port 0 is not a learner's port");
    check_host_resolves(config.host, config.port);
    if (!o->token_file.empty()) config.token = net::read_token_file(o->token_file, "--token-file");
    config.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o->timeout_s * 1000));
    config.give_up_after = std::chrono::milliseconds(static_cast<std::int64_t>(o->connect_timeout_s * 1000));
    net::RemoteActorRunner runner(config);
    SignalWatcher watcher([&](int) { runner.request_stop(); });
    spdlog::info("{} actors x {} envs of {} for the learner at {}:{}", config.actors, config.envs_per_actor, config.env,
                 config.host, config.port);
    const auto t0 = std::chrono::steady_clock::now();
    runner.start();
    runner.join();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    spdlog::info("actor done: {} env steps in {:.1f} s ({:.0f} steps/s), {} connections", runner.steps(), wall,
                 runner.steps() / std::max(1e-9, wall), runner.connects());
    return runner.status();
  };
}

}  // namespace seedrl
