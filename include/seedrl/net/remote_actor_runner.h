// The `seedrl actor` side: N threads, each stepping K local environments and
// trading one STEP / ACTIONS round trip per step with the learner. A thread
// that cannot reach its learner retries with exponential backoff, for at most
// `give_up_after` without a working connection; after a
// lost connection (learner restart, timeout) it reconnects and starts fresh
// episodes, since the learner dropped its partial unrolls. A REJECT other than
// "busy" is final: a wrong token or spec will not fix itself; so is a bad
// frame from the learner (an action outside the spec, a malformed frame).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "seedrl/env/registry.h"
#include "seedrl/net/protocol.h"

namespace seedrl::net {

struct RemoteActorsConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string token;
  std::string env = "cartpole";
  EnvOptions env_options;
  int actors = 1;
  int envs_per_actor = 1;
  std::uint64_t seed = 0;
  std::chrono::milliseconds timeout{30000};
  std::chrono::milliseconds min_backoff{100}, max_backoff{5000};
  // A thread without a working connection for this long gives up, and the
  // run exits 1 (--connect-timeout-s); 0: retry for ever.
  std::chrono::milliseconds give_up_after{60000};
};

class RemoteActorRunner {
 public:
  explicit RemoteActorRunner(RemoteActorsConfig config);
  ~RemoteActorRunner();

  void start();
  void request_stop() { stop_.store(true); }
  void join();
  // True once every thread has returned (stopped, finished or refused).
  bool done() const { return running_.load() == 0; }

  // 0: stopped or the learner finished; 1: refused for good, or the learner
  // sent a bad frame (see the log).
  int status() const { return refused_.load() ? 1 : 0; }
  bool learner_finished() const { return finished_.load(); }
  std::uint64_t steps() const { return steps_.load(std::memory_order_relaxed); }
  std::uint64_t connects() const { return connects_.load(std::memory_order_relaxed); }

 private:
  void run(int actor);
  void sleep_backoff(std::chrono::milliseconds d) const;

  RemoteActorsConfig config_;
  std::atomic<bool> stop_{false}, refused_{false}, finished_{false};
  std::atomic<int> running_{0};
  std::atomic<std::uint64_t> steps_{0}, connects_{0};
  std::vector<std::thread> threads_;
};

}  // namespace seedrl::net
