#include "seedrl/actor/actor_pool.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <system_error>

#include <spdlog/spdlog.h>

#include "seedrl/actor/env_stepper.h"
#include "seedrl/actor/episode_tracker.h"
#include "seedrl/util/actor_thread_priority.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/futex_hash.h"
#include "seedrl/util/thread_name.h"

namespace seedrl {

ActorPool::ActorPool(const ActorPoolConfig& config, std::vector<ActionSource*> sources, EpisodeStats& stats,
                     std::atomic<std::int64_t>& frames)
    : config_(config),
      sources_(std::move(sources)),
      stats_(stats),
      frames_(frames),
      times_(std::max(0, config.actors)) {
  if (sources_.empty()) throw std::invalid_argument("ActorPool: no action source");
}

ActorPool::~ActorPool() {
  request_stop();
  join();
}

void ActorPool::start() {
  reserve_futex_hash(config_.actors);
  threads_.reserve(config_.actors);
  for (int a = 0; a < config_.actors; ++a) {
    try {
      threads_.emplace_back([this, a] {
        name_this_thread("actor " + std::to_string(a));
        run(a);
      });
    } catch (const std::system_error& e) {
      // The kernel's thread or memory-map limit (vm.max_map_count allows
      // about 32k threads by default), or the address space, ran out. The
      // threads started stop; the owner joins them once their batchers close.
      request_stop();
      throw std::invalid_argument(config_.threads_flag + ": could not start actor thread " + std::to_string(a + 1) +
                                  " of " + std::to_string(config_.actors) + " (" + e.what() +
                                  "); this machine allows fewer threads: use fewer, with more --envs-per-actor");
    }
  }
}

void ActorPool::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

std::uint64_t ActorPool::step_ns() const {
  std::uint64_t sum = 0;
  for (const auto& t : times_) sum += t.step_ns.load(std::memory_order_relaxed);
  return sum;
}

std::uint64_t ActorPool::wait_ns() const {
  std::uint64_t sum = 0;
  for (const auto& t : times_) sum += t.wait_ns.load(std::memory_order_relaxed);
  return sum;
}

void ActorPool::run(int actor) {
  if (config_.nice > 0) lower_actor_thread_priority(config_.nice);
  bool settled = false;
  try {
    const int K = config_.envs_per_actor;
    ActionSource& source = *sources_[static_cast<std::size_t>(actor) % sources_.size()];
    EpisodeTracker episodes(stats_);
    EnvStepper envs(make_envs(config_.env, config_.env_options, K, config_.registry), &episodes);
    if (config_.max_frames > 0) envs.follow_progress(frames_, config_.max_frames);
    const std::size_t obs_bytes = envs.spec().observation.bytes();
    const std::size_t width = static_cast<std::size_t>(envs.spec().action.width());
    // Everything this actor touches per step is allocated here, once: the
    // envs write their observations into `obs`, which inference reads.
    std::vector<std::uint8_t> obs(obs_bytes * K);
    std::vector<float> actions(width * K);
    std::vector<EnvStep> steps(K);
    Completion completion;
    completion.yields = actors_yield(config_.actors);
    for (int k = 0; k < K; ++k) {
      EnvStep& s = steps[k];
      s.slot = config_.first_slot + actor * K + k;
      s.obs = obs.data() + k * obs_bytes;
      s.action = actions.data() + k * width;
      envs.bind(k, EnvPort{obs.data() + k * obs_bytes, &s.reward, &s.flags, s.action});
    }
    envs.begin(config_.seed, static_cast<std::uint64_t>(config_.first_slot + actor * K));
    settled_.fetch_add(1, std::memory_order_release);
    settled = true;
    const std::int64_t max_frames = config_.max_frames;
    using Clock = std::chrono::steady_clock;
    auto ns = [](Clock::time_point a, Clock::time_point b) {
      return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
    };
    ActorTimes& times = times_[actor];
    std::uint64_t step_total = 0, wait_total = 0;
    while (!stop_.load(std::memory_order_relaxed)) {
      if (max_frames > 0 && frames_.load(std::memory_order_relaxed) >= max_frames) break;
      const auto t_submit = Clock::now();
      if (!source.submit(steps, completion)) break;
      const auto t_step = Clock::now();
      wait_total += ns(t_submit, t_step);
      times.wait_ns.store(wait_total, std::memory_order_relaxed);
      frames_.fetch_add(envs.step(), std::memory_order_relaxed);
      step_total += ns(t_step, Clock::now());
      times.step_ns.store(step_total, std::memory_order_relaxed);
    }
  } catch (const std::exception& e) {
    spdlog::error("actor {} failed: {}", actor, error_text(e));
    failed_.store(true, std::memory_order_relaxed);
  }
  if (!settled) settled_.fetch_add(1, std::memory_order_release);
}

}  // namespace seedrl
