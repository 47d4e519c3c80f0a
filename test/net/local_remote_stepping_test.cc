// Local and remote actors step their envs with one routine: for the same
// seed and the same policy, a remote actor's envs hand the learner the very
// steps (observations, rewards, episode ends) a local actor's envs hand
// inference, so their episodes have the same returns.
#include <torch/types.h>  // first: LibTorch may bring glog's CHECK, Catch's must win

#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "../util/wait_until.h"
#include "seedrl/actor/actor_pool.h"
#include "seedrl/env/registry.h"
#include "seedrl/inference/request_batcher.h"
#include "seedrl/net/remote_actor_runner.h"
#include "seedrl/net/remote_actor_server.h"

using namespace seedrl;

namespace {

constexpr int kEnvs = 2;
constexpr std::size_t kSteps = 300;  // per env: several episodes of each ending
constexpr std::uint64_t kSeed = 21;

// A cartpole policy of the observation alone, as good as a random one: a bit
// of the cart velocity's float. Its episodes last about as long as the time
// limit of 25, so some terminate and some are truncated.
float policy(const float* obs) {
  std::uint32_t bits;
  std::memcpy(&bits, &obs[1], sizeof(bits));
  return static_cast<float>((bits >> 7) & 1u);
}

EnvOptions options() {
  EnvOptions o;
  o.time_limit = 25;
  return o;
}

// What inference saw of one step.
struct Seen {
  std::uint8_t flags;
  float reward;
  float obs[4];
  bool operator==(const Seen& o) const {
    return flags == o.flags && reward == o.reward && std::memcmp(obs, o.obs, sizeof(obs)) == 0;
  }
};

// Per slot, the first kSteps steps; acts with `policy`.
struct Recorder {
  std::mutex mu;
  std::map<int, std::vector<Seen>> seen;
  void see(int slot, const EnvStep& s, const float* obs, float* action) {
    {
      std::lock_guard lock(mu);
      auto& v = seen[slot];
      if (v.size() < kSteps) {
        Seen x{s.flags, s.reward, {}};
        std::memcpy(x.obs, obs, sizeof(x.obs));
        v.push_back(x);
      }
    }
    action[0] = policy(obs);
  }
  bool full() {
    std::lock_guard lock(mu);
    if (seen.size() != kEnvs) return false;
    for (auto& [slot, v] : seen)
      if (v.size() < kSteps) return false;
    return true;
  }
};

// Stands in for the batcher: answers a local actor's steps at once, and
// closes after kSteps of them.
struct ScriptedSource final : ActionSource {
  Recorder recorder;
  std::size_t rounds = 0;
  bool submit(std::span<EnvStep> steps, Completion&) override {
    if (rounds++ == kSteps) return false;
    for (EnvStep& s : steps) recorder.see(s.slot, s, static_cast<const float*>(s.obs), s.action);
    return true;
  }
};

// Each env's episode returns, from what inference saw.
std::vector<std::vector<double>> returns_of(const std::map<int, std::vector<Seen>>& seen, int& terminated,
                                            int& truncated) {
  std::vector<std::vector<double>> out;
  for (const auto& [slot, steps] : seen) {
    out.emplace_back();
    double r = 0;
    for (const Seen& s : steps) {
      if (s.flags & kFirst)
        r = 0;
      else
        r += s.reward;
      if (is_last(s.flags)) {
        out.back().push_back(r);
        terminated += (s.flags & kTerminated) != 0;
        truncated += (s.flags & kTruncated) != 0;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("local and remote actors step their envs alike for the same seed", "[actor][net][envstep]") {
  // Local: one actor thread of kEnvs envs (slots and random streams 0, 1).
  ScriptedSource local;
  {
    ActorPoolConfig c;
    c.env = "cartpole";
    c.env_options = options();
    c.envs_per_actor = kEnvs;
    c.seed = kSeed;
    EpisodeStats stats;
    std::atomic<std::int64_t> frames{0};
    ActorPool pool(c, local, stats, frames);
    pool.start();
    pool.join();  // the source closes after kSteps
  }
  REQUIRE(local.recorder.full());

  // Remote: one runner thread of kEnvs envs (random streams 0, 1) against a
  // learner whose stand-in inference acts with the same policy.
  const EnvSpec spec = EnvRegistry::builtin().make("cartpole", options())->spec();
  Recorder remote;
  RequestBatcher batcher(spec.observation, kEnvs, std::chrono::microseconds(200), 8, false);
  EpisodeStats server_episodes;
  std::atomic<std::int64_t> server_frames{0};
  net::RemoteServerConfig sc;
  sc.num_slots = kEnvs;
  sc.timeout = sc.handshake_timeout = std::chrono::seconds(120);  // only a hang reaches them
  net::RemoteActorServer server(sc, spec, {&batcher}, server_episodes, server_frames, [](int) {});
  std::thread inference([&] {
    while (InferenceBatch* b = batcher.next_batch()) {
      const float* obs = b->obs.data_ptr<float>();
      for (int i = 0; i < b->size; ++i) remote.see(b->steps[i]->slot, *b->steps[i], obs + 4 * i, b->steps[i]->action);
      batcher.complete(b);
    }
  });
  server.start();
  net::RemoteActorsConfig rc;
  rc.port = server.port();
  rc.env = "cartpole";
  rc.env_options = options();
  rc.envs_per_actor = kEnvs;
  rc.seed = kSeed;
  rc.timeout = std::chrono::seconds(120);
  net::RemoteActorRunner runner(rc);
  runner.start();
  const bool full = test::wait_until([&] { return remote.full(); });
  runner.request_stop();
  runner.join();
  server.request_stop();
  batcher.close();
  inference.join();
  server.join();
  REQUIRE(full);

  // The remote slots are leased in order: env k has the k-th slot.
  std::lock_guard lock(remote.mu);
  REQUIRE(remote.seen.size() == local.recorder.seen.size());
  auto l = local.recorder.seen.begin();
  for (auto r = remote.seen.begin(); r != remote.seen.end(); ++r, ++l) {
    CAPTURE(l->first, r->first);
    REQUIRE(l->second.size() == r->second.size());
    for (std::size_t t = 0; t < kSteps; ++t) {
      CAPTURE(t);
      REQUIRE(l->second[t] == r->second[t]);
    }
  }
  int terminated = 0, truncated = 0;
  const auto local_returns = returns_of(local.recorder.seen, terminated, truncated);
  CHECK(terminated > 0);
  CHECK(truncated > 0);
  CHECK(local_returns == returns_of(remote.seen, terminated, truncated));
}
