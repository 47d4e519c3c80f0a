// SAC's PolicyStep: the actor network alone (the critics stay with the
// learner), actions sampled from its tanh-squashed Gaussian and mapped onto
// the env's action box; for the run's first `random_steps` env steps,
// uniform over the box instead (SAC's warm-up). Nothing beyond the action is
// recorded: SAC's learner does not correct for the behaviour policy.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>

#include <ATen/core/Generator.h>

#include "seedrl/env/spec.h"
#include "seedrl/inference/policy_step.h"
#include "seedrl/model/sac_net.h"

namespace seedrl::sac {

class SacStep final : public PolicyStep {
 public:
  using ModelFactory = std::function<SacActor()>;

  // `frames`: the run's env-step clock; uniform actions while it is below
  // `random_steps`. `seed` seeds this step's own sampling stream.
  SacStep(ModelFactory make_model, const ActionSpec& action, const std::atomic<std::int64_t>* frames,
          std::int64_t random_steps, std::uint64_t seed);

  PolicyModel make_model(torch::Device device) const override;
  CoreState initial_state(int, torch::Device) const override { return {}; }
  torch::Tensor select(const torch::Tensor& output, const torch::Tensor& slots) override;
  int record_size() const override { return 1; }
  void record(const torch::Tensor&, std::span<const torch::Tensor>, torch::Tensor rows) const override { rows.zero_(); }

 private:
  ModelFactory make_model_;
  int dim_;
  torch::Tensor low_, high_;  // [dim] float, CPU
  const std::atomic<std::int64_t>* frames_;
  std::int64_t random_steps_;
  std::mutex mu_;  // inference threads share the generator
  at::Generator generator_;
};

// The deterministic action of evaluation, tanh(mean), mapped onto the box:
// actor output [n, 2 dim] -> [n, dim] float on the CPU.
torch::Tensor sac_mean_action(const torch::Tensor& output, const ActionSpec& action);

}  // namespace seedrl::sac
