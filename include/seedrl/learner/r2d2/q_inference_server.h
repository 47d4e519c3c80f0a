// R2D2's central inference: the same loop as InferenceServer (batches from the
// RequestBatcher, weights from the ParamPublisher, recurrent state kept per
// slot on the device, every step recorded into the TrajectoryStore) but for
// the Q-network, whose LSTM also takes each env's previous action and reward;
// the previous action is kept per slot here. Actions come from an
// ActionSelector (epsilon-greedy). Slots >= train_envs are evaluation envs:
// they act but are not recorded (their steps never reach replay).
//
// Each entry's per-step "policy" field holds [previous action (-1 at an
// episode start), the acting Q-values (num_actions)]: the learner rebuilds the
// network's inputs from the first, and the inserter computes a new sequence's
// priority from the second (acting-time priorities, as in R2D2 and SEED).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include <torch/types.h>

#include "seedrl/inference/action_selector.h"
#include "seedrl/inference/core_state_table.h"
#include "seedrl/inference/inference_threads.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/inference/param_publisher.h"
#include "seedrl/inference/request_batcher.h"
#include "seedrl/model/q_net.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl::r2d2 {

class QInferenceServer final : public DeviceInference {
 public:
  using ModelFactory = std::function<QNet()>;

  QInferenceServer(RequestBatcher& batcher, TrajectoryStore& store, ParamPublisher& publisher,
                   ModelFactory make_model, std::unique_ptr<ActionSelector> selector, int train_envs,
                   int num_slots, int threads, torch::Device device);
  ~QInferenceServer();

  void start() override;
  void stop() override;  // closes the batcher and joins the threads
  // Nothing to do: the FIRST flag of the slot's next user zeroes its state
  // and previous action.
  void reset_slot(int) override {}
  const InferenceStats& stats() const override { return stats_; }

 private:
  void run();  // one inference thread

  RequestBatcher& batcher_;
  TrajectoryStore& store_;
  ParamPublisher& publisher_;
  ModelFactory make_model_;
  std::unique_ptr<ActionSelector> selector_;
  int train_envs_;
  int threads_;
  torch::Device device_;
  CoreStateTable core_;
  std::vector<float> prev_action_;  // per slot; -1 before the first action
  InferenceStats stats_;
  InferenceThreads workers_;  // last: joined before the rest goes
};

}  // namespace seedrl::r2d2
