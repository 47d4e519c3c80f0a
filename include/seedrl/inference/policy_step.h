// What an algorithm supplies to the one inference loop (InferenceServer):
// its model, its per-row inputs beyond the observation, how it turns the
// model's output into actions, what it records per step and for which slots.
// The loop owns everything else: threads and streams, weight refresh,
// device copies, the recurrent-state table, CUDA graphs, the trajectory
// store and the counters. V-trace's is ActorCriticStep, R2D2's QValueStep.
//
// One PolicyStep serves every inference thread of a server: its methods are
// called concurrently, but with distinct slots (an env is in one batch at a
// time). Per-thread buffers belong to the loop, allocated once.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include <torch/types.h>

#include "seedrl/inference/request_batcher.h"
#include "seedrl/model/lstm_core.h"
#include "seedrl/util/cuda_graphs.h"

namespace torch::nn {
class Module;
}

namespace seedrl {

// One inference thread's copy of the model.
struct PolicyModel {
  // Its parameters and buffers, refreshed by ParamPublisher::sync.
  std::shared_ptr<torch::nn::Module> module;
  // {obs [1, n, ...], first [1, n], extra inputs [1, n] each..., h [n, H], c [n, H]}
  // -> {output [1, n, P], h, c}; h and c undefined without a recurrent core.
  CudaGraphs::Fn forward;
};

class PolicyStep {
 public:
  virtual ~PolicyStep() = default;

  // A fresh copy of the model on `device`, in eval mode.
  virtual PolicyModel make_model(torch::Device device) const = 0;
  // Every slot's recurrent state at an episode start, [num_slots, H] on
  // `device`; undefined (CoreState{}) for a model without a core.
  virtual CoreState initial_state(int num_slots, torch::Device device) const = 0;

  // Float inputs per row besides the observation and the FIRST flag.
  virtual int extra_inputs() const { return 0; }
  // Writes rows [0, batch.size) of each of the extra_inputs() host tensors
  // ([batch capacity] float, contiguous).
  virtual void fill_inputs(const InferenceBatch& /*batch*/, std::span<const torch::Tensor> /*inputs*/) {}

  // Actions [n, action_width] float on the CPU, contiguous, for the model
  // output [n, P] (on the device) of the envs in `slots` ([n] int64, CPU).
  virtual torch::Tensor select(const torch::Tensor& output, const torch::Tensor& slots) = 0;
  // Called for every row once its action is written (even after the store
  // closed): per-slot state that the next step's inputs need.
  virtual void acted(int /*slot*/, const float* /*action*/) {}

  // Floats per step the store records as "policy" (UnrollLayout::policy_size).
  virtual int record_size() const = 0;
  // Writes `rows` ([n, record_size()] float, CPU) from the output and the
  // extra inputs of the same rows ([n] each).
  virtual void record(const torch::Tensor& output, std::span<const torch::Tensor> inputs, torch::Tensor rows) const = 0;
  // Whether the slot's steps go to the store.
  virtual bool records(int /*slot*/) const { return true; }
};

}  // namespace seedrl
