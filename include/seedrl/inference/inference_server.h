// Central inference: threads that take batches from the RequestBatcher, run
// the policy once per batch on the device, sample actions, keep each env's
// recurrent state in a table indexed by slot, record every step into the
// TrajectoryStore and hand each actor its action.
#pragma once

#include <functional>
#include <memory>

#include <torch/types.h>

#include "seedrl/inference/action_selector.h"
#include "seedrl/inference/core_state_table.h"
#include "seedrl/inference/device_inference.h"
#include "seedrl/inference/inference_threads.h"
#include "seedrl/inference/param_publisher.h"
#include "seedrl/inference/request_batcher.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

class InferenceServer final : public DeviceInference {
 public:
  using ModelFactory = std::function<AgentNet()>;

  InferenceServer(RequestBatcher& batcher, TrajectoryStore* store, ParamPublisher& publisher,
                  ModelFactory make_model, const ActionSpec& action, int num_slots, int threads,
                  torch::Device device);
  ~InferenceServer();

  void start() override;
  // Closes the batcher and joins the threads.
  void stop() override;
  // Zeroes a slot's recurrent state (its actor went away).
  void reset_slot(int slot) override;
  // Replaces how actions are chosen from the policy output (before start());
  // the default samples from the policy distribution.
  void set_action_selector(std::unique_ptr<ActionSelector> selector) { selector_ = std::move(selector); }

  const InferenceStats& stats() const override { return stats_; }

 private:
  void run();  // one inference thread

  RequestBatcher& batcher_;
  TrajectoryStore* store_;
  ParamPublisher& publisher_;
  ModelFactory make_model_;
  std::unique_ptr<PolicyDistribution> dist_;
  std::unique_ptr<ActionSelector> selector_;  // null: sample from dist_
  int action_width_;
  int threads_;
  torch::Device device_;
  CoreStateTable core_;
  InferenceStats stats_;
  InferenceThreads workers_;  // last: joined before the rest goes
};

}  // namespace seedrl
