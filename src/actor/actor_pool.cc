#include "seedrl/actor/actor_pool.h"

#include <spdlog/spdlog.h>

#include "seedrl/util/rng.h"

namespace seedrl {

ActorPool::ActorPool(const ActorPoolConfig& config, RequestBatcher& batcher, EpisodeStats& stats,
                     std::atomic<std::int64_t>& frames)
    : config_(config), batcher_(batcher), stats_(stats), frames_(frames) {}

ActorPool::~ActorPool() {
  request_stop();
  join();
}

void ActorPool::start() {
  threads_.reserve(config_.actors);
  for (int a = 0; a < config_.actors; ++a) threads_.emplace_back([this, a] { run(a); });
}

void ActorPool::join() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void ActorPool::run(int actor) {
  try {
    const int K = config_.envs_per_actor;
    const auto& registry = EnvRegistry::builtin();
    std::vector<EnvPtr> envs;
    for (int k = 0; k < K; ++k) envs.push_back(registry.make(config_.env, config_.env_options));
    const EnvSpec& spec = envs[0]->spec();
    const std::size_t obs_bytes = spec.observation.bytes();
    const int width = spec.action.width();
    // Everything this actor touches per step is allocated here, once.
    std::vector<std::uint8_t> obs(obs_bytes * K);
    std::vector<float> actions(static_cast<std::size_t>(width) * K);
    std::vector<EnvStep> steps(K);
    std::vector<double> returns(K, 0.0);
    std::vector<std::int64_t> lengths(K, 0);
    Completion completion;
    for (int k = 0; k < K; ++k) {
      const int slot = config_.first_slot + actor * K + k;
      steps[k].slot = slot;
      steps[k].obs = obs.data() + k * obs_bytes;
      steps[k].action = actions.data() + k * width;
      envs[k]->reset(derive_seed(config_.seed, slot), obs.data() + k * obs_bytes);
      steps[k].flags = kFirst;
      steps[k].reward = 0.f;
    }
    const std::int64_t max_frames = config_.max_frames;
    while (!stop_.load(std::memory_order_relaxed)) {
      if (max_frames > 0 && frames_.load(std::memory_order_relaxed) >= max_frames) break;
      if (!batcher_.submit(steps, completion)) break;
      std::int64_t stepped = 0;
      for (int k = 0; k < K; ++k) {
        EnvStep& s = steps[k];
        void* o = obs.data() + k * obs_bytes;
        if (is_last(s.flags)) {
          // The final observation was shown to inference (so a truncated
          // episode can bootstrap from it); its action is ignored.
          envs[k]->reset(std::nullopt, o);
          s.flags = kFirst;
          s.reward = 0.f;
          continue;
        }
        Action a{static_cast<std::int32_t>(s.action[0]), s.action};
        StepResult r = envs[k]->step(a, o);
        ++stepped;
        returns[k] += r.reward;
        ++lengths[k];
        s.reward = r.reward;
        s.flags = static_cast<std::uint8_t>((r.terminated ? kTerminated : 0) | (r.truncated ? kTruncated : 0));
        if (is_last(s.flags)) {
          stats_.record(returns[k], lengths[k]);
          returns[k] = 0;
          lengths[k] = 0;
        }
      }
      frames_.fetch_add(stepped, std::memory_order_relaxed);
    }
  } catch (const std::exception& e) {
    spdlog::error("actor {} failed: {}", actor, e.what());
  }
}

}  // namespace seedrl
