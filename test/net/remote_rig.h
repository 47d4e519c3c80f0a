// A learner without a model for the remote-actor tests: the real
// RequestBatcher, TrajectoryStore and RemoteActorServer, with a stand-in
// inference thread whose action echoes the observation (so a client can check
// it got the answer to its own step), or is whatever a test's `act` writes,
// and a learner thread that keeps every unroll's first observation element
// and rewards for inspection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <torch/types.h>

#include "seedrl/net/remote_actor_client.h"
#include "seedrl/net/remote_actor_server.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl::test {

// Toy observation: (connection id, env index, step counter, 0). The action
// is continuous so that any echo passes the actor's check of the spec.
inline EnvSpec toy_spec() { return EnvSpec{"toy", ArraySpec{{4}, DType::kFloat32}, ActionSpec::box({-1.f}, {1.f}), 0}; }
inline float echo_action(const float* obs) { return obs[0] * 1000.f + obs[2]; }

inline UnrollLayout rig_layout(const EnvSpec& spec) {
  UnrollLayout l;
  l.observation = spec.observation;
  l.action_width = spec.action.width();
  l.policy_size = 2;
  l.length = 4;
  l.overlap = 1;
  return l;
}

struct RemoteRig {
  // Writes the action (spec.action.width() floats) for an observation.
  using ActFn = std::function<void(const float* obs, float* action)>;

  // `devices` batchers, each with its own stand-in inference thread.
  explicit RemoteRig(net::RemoteServerConfig config, int devices = 1, EnvSpec env = toy_spec(), ActFn act_fn = {})
      : spec(std::move(env)),
        act(act_fn ? std::move(act_fn) : ActFn([](const float* obs, float* a) { a[0] = echo_action(obs); })),
        store(rig_layout(spec), config.first_slot + config.num_slots, 4096, 1),
        server(config, spec, make_batchers(devices), episodes, frames, [this](int slot) {
          store.drop_partial(slot);
          released.fetch_add(1);
        }) {
    for (auto& b : batchers) inference.emplace_back([this, &batcher = *b] { serve(batcher); });
    learner = std::thread([this] {
      UnrollBatch out;
      while (store.next_batch(1, out)) {
        auto obs = out.obs.contiguous();  // [L, 1, obs...]
        std::vector<float> ids, rewards;
        for (int t = 0; t < obs.size(0); ++t) {
          ids.push_back(obs[t][0].view(-1)[0].item<float>());
          rewards.push_back(out.rewards[t][0].item<float>());
        }
        std::lock_guard lock(mu);
        unroll_ids.push_back(ids);
        unroll_rewards.push_back(rewards);
      }
    });
    server.start();
  }
  ~RemoteRig() { shutdown(); }

  std::vector<RequestBatcher*> make_batchers(int devices) {
    std::vector<RequestBatcher*> out;
    for (int d = 0; d < devices; ++d) {
      batchers.push_back(
          std::make_unique<RequestBatcher>(spec.observation, 4, std::chrono::microseconds(200), 8, false));
      out.push_back(batchers.back().get());
    }
    return out;
  }

  void serve(RequestBatcher& batcher) {
    const float policy[2] = {0.f, 0.f};
    const auto width = static_cast<std::int64_t>(spec.observation.numel());
    while (InferenceBatch* b = batcher.next_batch()) {
      const float* obs = b->obs.data_ptr<float>();
      for (int i = 0; i < b->size; ++i) {
        const EnvStep& s = *b->steps[i];
        act(obs + width * i, s.action);
        store.append(s.slot, StepRecord{obs + width * i, s.action, policy, nullptr, nullptr, s.reward, s.flags}, 0);
      }
      batcher.complete(b);
    }
  }

  void shutdown() {
    if (done) return;
    done = true;
    server.request_stop();
    for (auto& b : batchers) b->close();
    store.close();
    for (auto& t : inference) t.join();
    learner.join();
    server.join();
  }

  net::ClientConfig client(int envs) const {
    net::ClientConfig c;
    c.port = server.port();
    c.spec = spec;
    c.env_name = spec.name;
    c.num_envs = envs;
    c.timeout = std::chrono::seconds(120);  // only a hang reaches it
    c.connect_timeout = std::chrono::seconds(120);
    return c;
  }

  EnvSpec spec;
  ActFn act;
  std::vector<std::unique_ptr<RequestBatcher>> batchers;  // before server: it holds pointers to them
  TrajectoryStore store;
  EpisodeStats episodes;
  std::atomic<std::int64_t> frames{0};
  std::atomic<int> released{0};
  net::RemoteActorServer server;
  std::vector<std::thread> inference;
  std::thread learner;
  std::mutex mu;
  std::vector<std::vector<float>> unroll_ids;      // per unroll: the connection id of each entry
  std::vector<std::vector<float>> unroll_rewards;  // per unroll: the reward of each entry
  bool done = false;
};

// A scripted remote actor: episodes of exactly `episode_length` steps with
// reward 1, observations (id, env, step counter). Checks every action.
struct ToyActor {
  ToyActor(net::ClientConfig config, float id, int episode_length = 5)
      : conn(config), id(id), len(config.num_envs, 0), t(config.num_envs, 0), episode_length(episode_length) {}

  net::Welcome connect() {
    auto w = conn.connect();
    for (int k = 0; k < static_cast<int>(len.size()); ++k) {
      write_obs(k);
      conn.flags()[k] = kFirst;
      conn.rewards()[k] = 0.f;
    }
    return w;
  }
  // One round trip, then the envs "step". Returns the env steps taken.
  int step() {
    for (auto f : conn.flags()) sent_frames += (f & kFirst) ? 0 : 1;
    conn.step();
    int stepped = 0;
    for (int k = 0; k < static_cast<int>(len.size()); ++k) {
      const float* o = reinterpret_cast<const float*>(conn.obs(k));
      if (conn.actions(k)[0] != echo_action(o)) ++wrong_actions;
      ++t[k];
      if (conn.flags()[k] & (kTerminated | kTruncated)) {
        len[k] = 0;
        conn.flags()[k] = kFirst;
        conn.rewards()[k] = 0.f;
      } else {
        ++len[k];
        ++stepped;
        conn.rewards()[k] = 1.f;
        conn.flags()[k] = len[k] == episode_length ? kTerminated : 0;
      }
      write_obs(k);
    }
    return stepped;
  }
  void write_obs(int k) {
    const float o[4] = {id, static_cast<float>(k), static_cast<float>(t[k]), 0.f};
    std::memcpy(conn.obs(k), o, sizeof(o));
  }

  net::RemoteActorConnection conn;
  float id;
  std::vector<int> len, t;
  int episode_length;
  int wrong_actions = 0;
  std::int64_t sent_frames = 0;  // env steps the learner has seen
};

}  // namespace seedrl::test
