// SAC's k-step transitions from stored sequences, against transitions worked
// out by hand: an episode that terminates inside a sequence (no bootstrap), one
// cut off by a time limit (bootstrap from its last observation), steps near
// the sequence's end (shorter k), actions mapped from the env's box, and
// rewards clipped and scaled step by step.
#include <catch2/catch.hpp>

#include <torch/torch.h>

#include "seedrl/env/env_step.h"
#include "seedrl/learner/sac/transitions.h"

using namespace seedrl;

TEST_CASE("SAC transitions stop at episode ends and bootstrap only from truncations", "[learner][sac]") {
  const int L = 6, B = 2;
  UnrollBatch seq;
  seq.obs = torch::zeros({L, B, 1});
  seq.actions = torch::zeros({L, B, 1});
  for (int t = 0; t < L; ++t)
    for (int b = 0; b < B; ++b) {
      seq.obs[t][b][0] = 10.0 * t + b;
      seq.actions[t][b][0] = 0.2 * t - 0.1 * b;
    }
  // Column 0: an episode terminates at entry 3; the next starts at 4.
  // Column 1: an episode is truncated at entry 2; the next starts at 3.
  const std::uint8_t flags[L][B] = {{kFirst, 0}, {0, 0}, {0, kTruncated}, {kTerminated, kFirst}, {kFirst, 0}, {0, 0}};
  const float rewards[L][B] = {{0, 9}, {1, 1}, {2, 1}, {3, 0}, {0, 2}, {5, 4}};
  seq.flags = torch::zeros({L, B}, torch::kUInt8);
  seq.rewards = torch::zeros({L, B});
  for (int t = 0; t < L; ++t)
    for (int b = 0; b < B; ++b) {
      seq.flags[t][b] = flags[t][b];
      seq.rewards[t][b] = rewards[t][b];
    }
  const sac::TransitionBatch tr = sac::make_transitions(seq, 3, 0.5, {-2.f}, {2.f});

  struct Want {
    int t, b, next_t;
    float reward, terminal, discount;
  };
  // gamma 0.5, n 3, worked out by hand from the rewards above.
  const std::vector<Want> want = {
      {0, 0, 3, 1 + 0.5f * 2 + 0.25f * 3, 1, 0.125f},  // three steps to the terminal entry
      {1, 0, 3, 2 + 0.5f * 3, 1, 0.25f},
      {2, 0, 3, 3, 1, 0.5f},
      {4, 0, 5, 5, 0, 0.5f},              // the sequence ends after one step
      {0, 1, 2, 1 + 0.5f * 1, 0, 0.25f},  // to the truncated entry: bootstrap from it
      {1, 1, 2, 1, 0, 0.5f},
      {3, 1, 5, 2 + 0.5f * 4, 0, 0.25f},
      {4, 1, 5, 4, 0, 0.5f},
  };
  REQUIRE(tr.obs.size(0) == static_cast<std::int64_t>(want.size()));
  for (std::size_t i = 0; i < want.size(); ++i) {
    const Want& w = want[i];
    INFO("transition " << i << " from t=" << w.t << " b=" << w.b);
    CHECK(tr.obs[i][0].item<float>() == Approx(10.0 * w.t + w.b));
    CHECK(tr.next_obs[i][0].item<float>() == Approx(10.0 * w.next_t + w.b));
    CHECK(tr.reward[i].item<float>() == Approx(w.reward));
    CHECK(tr.terminal[i].item<float>() == w.terminal);
    CHECK(tr.discount[i].item<float>() == Approx(w.discount));
    CHECK(tr.action[i][0].item<float>() == Approx((0.2 * w.t - 0.1 * w.b) / 2));  // box [-2, 2] -> (-1, 1)
  }
  CHECK_THROWS_WITH(sac::make_transitions(seq, 0, 0.5, {-2.f}, {2.f}), Catch::Contains("--n-step"));
  // One step each: every non-last entry but the sequence's final one.
  CHECK(sac::make_transitions(seq, 1, 0.5, {-2.f}, {2.f}).obs.size(0) == 8);

  // Each step's reward clamped to [-2.5, 2.5], then times 0.5, before the
  // sum (--reward-clip, --reward-scale), worked out by hand as above.
  const sac::TransitionBatch shaped = sac::make_transitions(seq, 3, 0.5, {-2.f}, {2.f}, -1, 2.5, 0.5);
  const std::vector<float> want_shaped = {(1 + 0.5f * 2 + 0.25f * 2.5f) * 0.5f,
                                          (2 + 0.5f * 2.5f) * 0.5f,
                                          2.5f * 0.5f,
                                          2.5f * 0.5f,
                                          (1 + 0.5f * 1) * 0.5f,
                                          1 * 0.5f,
                                          (2 + 0.5f * 2.5f) * 0.5f,
                                          2.5f * 0.5f};
  REQUIRE(shaped.reward.size(0) == static_cast<std::int64_t>(want_shaped.size()));
  for (std::size_t i = 0; i < want_shaped.size(); ++i) {
    INFO("transition " << i);
    CHECK(shaped.reward[i].item<float>() == Approx(want_shaped[i]));
  }
}
