// R2D2's PolicyStep: the recurrent Q-network, whose LSTM also takes each
// env's previous action and reward (the previous action kept per slot here,
// both reset at an episode start). Actions come from an ActionSelector
// (epsilon-greedy). Slots >= train_envs are evaluation envs: they act but are
// not recorded (their steps never reach replay).
//
// Each entry's recorded "policy" field holds [previous action (-1 at an
// episode start), the acting Q-values (num_actions)]: the learner rebuilds the
// network's inputs from the first, and the inserter computes a new sequence's
// priority from the second (acting-time priorities, as in R2D2 and SEED).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "seedrl/inference/action_selector.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/inference/policy_step.h"
#include "seedrl/model/q_net.h"

namespace seedrl::r2d2 {

class QValueStep final : public PolicyStep {
 public:
  using ModelFactory = std::function<QNet()>;

  QValueStep(ModelFactory make_model, std::unique_ptr<ActionSelector> selector, int train_envs, int num_slots);

  PolicyModel make_model(torch::Device device) const override;
  CoreState initial_state(int num_slots, torch::Device device) const override;
  int extra_inputs() const override { return 2; }  // previous action, previous reward
  void fill_inputs(const InferenceBatch& batch, std::span<const torch::Tensor> inputs) override;
  torch::Tensor select(const torch::Tensor& output, const torch::Tensor& slots) override;
  void acted(int slot, const float* action) override { prev_action_[static_cast<std::size_t>(slot)] = action[0]; }
  int record_size() const override { return 1 + num_actions_; }
  void record(const torch::Tensor& output, std::span<const torch::Tensor> inputs, torch::Tensor rows) const override;
  bool records(int slot) const override { return slot < train_envs_; }

 private:
  ModelFactory make_model_;
  std::unique_ptr<ActionSelector> selector_;
  int train_envs_;
  int num_actions_;
  std::vector<float> prev_action_;  // per slot; -1 before the first action
};

// R2D2's inference server for one device: an InferenceServer running a QValueStep.
std::unique_ptr<InferenceServer> make_q_inference_server(RequestBatcher& batcher, TrajectoryStore& store,
                                                         ParamPublisher& publisher, QValueStep::ModelFactory make_model,
                                                         std::unique_ptr<ActionSelector> selector, int train_envs,
                                                         int num_slots, int threads, torch::Device device);

}  // namespace seedrl::r2d2
