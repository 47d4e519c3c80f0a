// Local actors: N threads, each stepping K environments. An actor holds no
// model: it hands its K observations to an ActionSource (central inference's
// RequestBatcher) and sleeps until their actions come back. With several
// sources (one per inference device) actor a uses sources[a % N]. Environment `slot` ids are first_slot + a*K + k,
// and each env gets its own random stream derived from --seed and its slot.
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "seedrl/actor/action_source.h"
#include "seedrl/actor/actor_pool_config.h"
#include "seedrl/actor/episode_stats.h"

namespace seedrl {

// Where an actor thread's time goes: stepping its envs or waiting in
// submit() for actions. Each thread owns one padded slot and stores its own
// running totals (relaxed, no read-modify-write shared between threads), so
// the counters cost two clock reads per K steps.
struct alignas(64) ActorTimes {
  std::atomic<std::uint64_t> step_ns{0}, wait_ns{0};
};

// Whether `actors` actor threads on `hardware_threads` should end their
// waits' spins in yields (Completion::yields): only when they outnumber the
// hardware threads, so that a yield hands the core to another actor.
inline bool actors_yield(int actors, int hardware_threads) { return actors > std::max(1, hardware_threads); }
// The same on this machine's hardware threads.
inline bool actors_yield(int actors) {
  return actors_yield(actors, static_cast<int>(std::thread::hardware_concurrency()));
}

class ActorPool {
 public:
  // `frames` is the run-wide environment-step counter (resumes keep counting).
  ActorPool(const ActorPoolConfig& config, std::vector<ActionSource*> sources, EpisodeStats& stats,
            std::atomic<std::int64_t>& frames);
  // One source per inference device, e.g. InferenceFleet::batchers().
  template <std::derived_from<ActionSource> Source>
  ActorPool(const ActorPoolConfig& config, const std::vector<Source*>& sources, EpisodeStats& stats,
            std::atomic<std::int64_t>& frames)
      : ActorPool(config, std::vector<ActionSource*>(sources.begin(), sources.end()), stats, frames) {}
  ActorPool(const ActorPoolConfig& config, ActionSource& source, EpisodeStats& stats, std::atomic<std::int64_t>& frames)
      : ActorPool(config, std::vector<ActionSource*>{&source}, stats, frames) {}
  ~ActorPool();

  void start();
  void request_stop() { stop_.store(true, std::memory_order_relaxed); }
  // An actor thread failed (an env threw; it logged why): the run must stop.
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void join();
  int num_envs() const { return config_.actors * config_.envs_per_actor; }
  // Summed over actor threads (valid after construction; grows while running).
  std::uint64_t step_ns() const;
  std::uint64_t wait_ns() const;
  // Actor threads that have made their envs and reset them (or failed):
  // making an env can cost far more than a step (an ALE instance computes
  // its palettes), so a measurement starts once this reaches the actors.
  int settled() const { return settled_.load(std::memory_order_acquire); }

 private:
  void run(int actor);

  ActorPoolConfig config_;
  std::vector<ActionSource*> sources_;
  EpisodeStats& stats_;
  std::atomic<std::int64_t>& frames_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  std::atomic<int> settled_{0};
  std::vector<std::thread> threads_;
  std::vector<ActorTimes> times_;  // one per actor thread
};

}  // namespace seedrl
