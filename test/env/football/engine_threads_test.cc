// football:<scenario> on many threads: the engine keeps its current game in a
// thread-local pointer, so every env call must make its own game current.
// Dozens of envs stepped interleaved on many threads must each produce what
// the same env (same seed, same actions) produces stepped alone.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "seedrl/env/football/football_env.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"

using namespace seedrl;

namespace {

// A digest of one env's run: per step the reward, the end flags and an
// FNV-1a hash of the observation.
struct Run {
  std::vector<std::uint64_t> digest;
  bool operator==(const Run&) const = default;
};

std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Steps `envs` in turn (each one step at a time), `steps` steps each, with
// actions drawn from a stream per env; resets on episode ends.
void drive(std::vector<EnvPtr*> envs, const std::vector<std::uint64_t>& seeds, int steps, std::vector<Run*> out) {
  std::vector<std::vector<std::uint8_t>> obs(envs.size());
  std::vector<Rng> rng;
  for (std::size_t i = 0; i < envs.size(); ++i) {
    obs[i].resize((*envs[i])->spec().observation.bytes());
    (*envs[i])->reset(seeds[i], obs[i].data());
    out[i]->digest.push_back(fnv1a(obs[i].data(), obs[i].size()));
    rng.emplace_back(seeds[i] + 17);
  }
  for (int t = 0; t < steps; ++t) {
    for (std::size_t i = 0; i < envs.size(); ++i) {
      Env& env = **envs[i];
      Action a;
      a.index = static_cast<int>(rng[i].below(19));
      const StepResult r = env.step(a, obs[i].data());
      std::uint64_t h = fnv1a(obs[i].data(), obs[i].size());
      h = fnv1a(reinterpret_cast<const std::uint8_t*>(&r.reward), sizeof r.reward, h);
      h = h * 31 + (r.terminated ? 1 : 0) * 2 + (r.truncated ? 1 : 0);
      out[i]->digest.push_back(h);
      if (r.terminated || r.truncated) env.reset(std::nullopt, obs[i].data());
    }
  }
}

}  // namespace

TEST_CASE("football envs on many threads step as each does alone", "[football][engine]") {
  constexpr int kThreads = 8, kEnvsPerThread = 3, kSteps = 60;
  constexpr int kEnvs = kThreads * kEnvsPerThread;
  const EnvRegistry& registry = EnvRegistry::builtin();
  // Two scenarios side by side: the engine's per-game state must not leak.
  auto scenario = [](int i) {
    return std::string(i % 2 == 0 ? "football:academy_3_vs_1_with_keeper" : "football:academy_counterattack_easy");
  };

  std::vector<EnvPtr> envs(kEnvs);
  std::vector<Run> together(kEnvs), alone(kEnvs);
  std::vector<std::uint64_t> seeds(kEnvs);
  for (int i = 0; i < kEnvs; ++i) seeds[static_cast<std::size_t>(i)] = 1000 + static_cast<std::uint64_t>(i);

  // Made and stepped on the threads, each thread interleaving its envs.
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<EnvPtr*> mine;
      std::vector<std::uint64_t> my_seeds;
      std::vector<Run*> my_runs;
      for (int j = 0; j < kEnvsPerThread; ++j) {
        const int i = t * kEnvsPerThread + j;
        envs[static_cast<std::size_t>(i)] = registry.make(scenario(i));
        mine.push_back(&envs[static_cast<std::size_t>(i)]);
        my_seeds.push_back(seeds[static_cast<std::size_t>(i)]);
        my_runs.push_back(&together[static_cast<std::size_t>(i)]);
      }
      drive(mine, my_seeds, kSteps, my_runs);
    });
  }
  for (auto& th : threads) th.join();

  // The same games again, later, on this thread, one at a time, on one
  // engine per scenario (a seeded reset starts an env afresh): the engines
  // above stay alive, so this thread's current game changes under them too.
  EnvPtr reused[2] = {registry.make(scenario(0)), registry.make(scenario(1))};
  for (int i = 0; i < kEnvs; ++i)
    drive({&reused[i % 2]}, {seeds[static_cast<std::size_t>(i)]}, kSteps, {&alone[static_cast<std::size_t>(i)]});
  for (int i = 0; i < kEnvs; ++i) {
    INFO("env " << i << " (" << scenario(i) << ", seed " << seeds[static_cast<std::size_t>(i)] << ")");
    CHECK(together[static_cast<std::size_t>(i)] == alone[static_cast<std::size_t>(i)]);
  }
  // Different seeds give different games (the comparison above is not vacuous).
  CHECK_FALSE(alone[0] == alone[2]);
}
