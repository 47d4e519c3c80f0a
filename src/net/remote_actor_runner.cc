#include "seedrl/net/remote_actor_runner.h"

#include <algorithm>
#include <optional>
#include <string>

#include <spdlog/spdlog.h>

#include "seedrl/actor/env_stepper.h"
#include "seedrl/env/env_settings.h"
#include "seedrl/net/remote_actor_client.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/thread_name.h"

namespace seedrl::net {

RemoteActorRunner::RemoteActorRunner(RemoteActorsConfig config) : config_(std::move(config)) {}

RemoteActorRunner::~RemoteActorRunner() {
  request_stop();
  join();
}

void RemoteActorRunner::start() {
  running_.store(config_.actors);
  for (int a = 0; a < config_.actors; ++a)
    threads_.emplace_back([this, a] {
      name_this_thread("remote actor " + std::to_string(a));
      run(a);
    });
}

void RemoteActorRunner::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void RemoteActorRunner::sleep_backoff(std::chrono::milliseconds d) const {
  const auto until = std::chrono::steady_clock::now() + d;
  while (!stop_.load() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(d, std::chrono::milliseconds(50)));
}

void RemoteActorRunner::run(int actor) {
  try {
    const int K = config_.envs_per_actor;
    // Episodes are counted by the learner's session; the actor keeps none.
    EnvStepper envs(make_envs(config_.env, config_.env_options, K));
    ClientConfig cc;
    cc.host = config_.host;
    cc.port = config_.port;
    cc.token = config_.token;
    cc.env_name = config_.env;
    cc.env_settings = env_settings(config_.env, config_.env_options);
    cc.spec = envs.spec();
    cc.num_envs = K;
    cc.timeout = config_.timeout;
    cc.stop = &stop_;
    const std::string learner = config_.host + ":" + std::to_string(config_.port);
    auto backoff = config_.min_backoff;
    bool seeded = false;
    std::string last_problem;
    // Since when this thread has had no working connection (none yet at start).
    auto unreachable_since = std::chrono::steady_clock::now();
    while (!stop_.load()) {
      std::string problem;
      try {
        RemoteActorConnection conn(cc);
        conn.connect();
        connects_.fetch_add(1, std::memory_order_relaxed);
        if (!last_problem.empty()) spdlog::info("actor {}: connected to {}", actor, learner);
        last_problem.clear();
        backoff = config_.min_backoff;
        unreachable_since = std::chrono::steady_clock::time_point::max();
        // The learner keeps nothing of an earlier connection: start fresh
        // episodes (each env's random stream continues after the first seed).
        // The envs write into the STEP frame and read the last ACTIONS in
        // place (the connection's buffers stay put until it closes).
        auto rewards = conn.rewards();
        auto flags = conn.flags();
        for (int k = 0; k < K; ++k) envs.bind(k, EnvPort{conn.obs(k), &rewards[k], &flags[k], conn.actions(k)});
        envs.begin(seeded ? std::nullopt : std::optional<std::uint64_t>(config_.seed),
                   static_cast<std::uint64_t>(actor) * static_cast<std::uint64_t>(K));
        seeded = true;
        for (;;) {
          conn.step();
          steps_.fetch_add(static_cast<std::uint64_t>(envs.step()), std::memory_order_relaxed);
        }
      } catch (const Stopped&) {
        break;
      } catch (const Rejected& e) {
        if (e.code != RejectCode::kBusy) {
          spdlog::error("actor {}: {}", actor, e.what());
          refused_.store(true);
          stop_.store(true);
          break;
        }
        problem = e.what();
      } catch (const LearnerGone& e) {
        if (e.code == GoodbyeCode::kFinished) {
          if (!finished_.exchange(true)) spdlog::info("actor {}: {}; exiting", actor, e.what());
          stop_.store(true);
          break;
        }
        // Stopped before its end (Ctrl-C): it may be resumed, so the actors
        // wait for it, up to --connect-timeout-s.
        problem = std::string(e.what()) + " before the run's end; waiting for it to resume";
      } catch (const BadFrame& e) {
        // A learner that speaks nonsense will not start making sense: one
        // line for the run (the other threads meet the same learner).
        if (!refused_.exchange(true)) spdlog::error("actor {}: {}; giving up", actor, e.what());
        stop_.store(true);
        break;
      } catch (const ConnectionLost& e) {
        problem = e.what();
      }
      const auto now = std::chrono::steady_clock::now();
      if (unreachable_since == std::chrono::steady_clock::time_point::max()) unreachable_since = now;
      if (config_.give_up_after.count() > 0 && now - unreachable_since >= config_.give_up_after) {
        if (!refused_.exchange(true))
          spdlog::error(
              "actor {}: no working connection to the learner at {} for {:.0f} s ({}); giving up "
              "(--connect-timeout-s)",
              actor, learner, std::chrono::duration<double>(now - unreachable_since).count(), problem);
        stop_.store(true);
        break;
      }
      // One line per change of trouble, not one per retry.
      if (problem != last_problem) spdlog::warn("actor {}: {}; retrying with backoff", actor, problem);
      last_problem = problem;
      sleep_backoff(backoff);
      backoff = std::min(backoff * 2, config_.max_backoff);
    }
  } catch (const std::exception& e) {
    spdlog::error("actor {} failed: {}", actor, error_text(e));
    refused_.store(true);
    stop_.store(true);
  }
  running_.fetch_sub(1);
}

}  // namespace seedrl::net
