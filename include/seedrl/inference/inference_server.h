// Central inference, the one loop of both algorithms: threads that take
// batches from the RequestBatcher, refresh their copy of the model from the
// ParamPublisher, run it once per batch on the device, keep each env's
// recurrent state in a table indexed by slot, write every row's action, record
// every step into the TrajectoryStore and answer the actors. What differs
// between algorithms (model, extra inputs, action choice, record format,
// recorded slots) comes from a PolicyStep (policy_step.h).
//
// The actors are answered before their steps are recorded, so that they step
// their envs while the inference thread copies the batch into the store;
// RecordTurns keeps each slot's steps in order across threads.
// Once the store refuses an append (it closed: shutting down), the batch's
// remaining rows still get their actions but nothing more is recorded.
#pragma once

#include <cstdint>
#include <memory>

#include <torch/types.h>

#include "seedrl/inference/core_state_table.h"
#include "seedrl/inference/device_inference.h"
#include "seedrl/inference/inference_threads.h"
#include "seedrl/inference/policy_step.h"
#include "seedrl/inference/record_turns.h"
#include "seedrl/inference/request_batcher.h"
#include "seedrl/publisher/param_publisher.h"
#include "seedrl/trajectory/trajectory_store.h"

namespace seedrl {

class InferenceServer final : public DeviceInference {
 public:
  // `store` may be null: nothing is recorded (the inference bench).
  InferenceServer(RequestBatcher& batcher, TrajectoryStore* store, ParamPublisher& publisher,
                  std::unique_ptr<PolicyStep> step, int num_slots, int threads, torch::Device device);
  ~InferenceServer();

  void start() override;
  // Closes the batcher and joins the threads.
  void stop() override;
  // Zeroes a slot's recurrent state (its actor went away).
  void reset_slot(int slot) override { core_.reset(slot); }
  void settle_slot(int slot) override { turns_.wait_settled(slot); }

  const InferenceStats& stats() const override { return stats_; }
  bool failed() const override { return workers_.failed(); }

 private:
  void run();  // one inference thread
  // A row to record once its actor is answered, with what it needs from the
  // actor's EnvStep.
  struct PendingRecord {
    int row;
    int slot;
    std::uint32_t ticket;
    float reward;
    std::uint8_t flags;
  };

  RequestBatcher& batcher_;
  TrajectoryStore* store_;
  ParamPublisher& publisher_;
  std::unique_ptr<PolicyStep> step_;
  int threads_;
  torch::Device device_;
  CoreStateTable core_;
  RecordTurns turns_;
  InferenceStats stats_;
  InferenceThreads workers_;  // last: joined before the rest goes
};

}  // namespace seedrl
