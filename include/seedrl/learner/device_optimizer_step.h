// LibTorch's Adam or RMSprop step, with clip_grad_norm_ before it, done so
// that nothing waits for the device: the per-step numbers (learning rate,
// Adam's bias corrections) are read from a small tensor on the parameters'
// device instead of being baked into each kernel as host doubles, and the
// global grad norm stays a device tensor (LibTorch's clip_grad_norm_ returns
// a double, which synchronises with the GPU on every update). A GPU learner's
// whole update can then be queued ahead of the GPU, and captured once as a
// CUDA graph whose replays read each step's numbers from the same tensor.
//
// The optimizer's state stays LibTorch's own, kept as its step() would keep
// it (moments, step counts): checkpoints save and load it unchanged, and a
// step of LibTorch's optimizer may follow a step of this one.
//
// Every parameter must receive a gradient in every update (an AgentNet's do):
// the step counts advance in prepare(), before the gradients exist.
#pragma once

#include <vector>

#include <torch/optim/optimizer.h>

#include "seedrl/learner/learner_config.h"

namespace seedrl {

class DeviceOptimizerStep {
 public:
  // `optimizer`: the torch::optim::Adam or RMSprop that make_optimizer built
  // from `config` over `params` (one device), or an optimizer one of whose
  // parameter groups holds `params` (steps of disjoint parameters may then
  // run on threads side by side, once prepared on one). Throws
  // std::invalid_argument for another optimizer, parameters in no one group
  // or options this step does not implement (weight decay, AMSGrad,
  // centred RMSprop).
  DeviceOptimizerStep(torch::optim::Optimizer& optimizer, const OptimizerConfig& config,
                      std::vector<torch::Tensor> params);

  // Host side, before each step(): advances the state's step counts and
  // queues this step's numbers for learning rate `lr` to the device, without
  // waiting for it. Creates any state the optimizer lacks. Returns whether
  // the tensors step() works on (the parameters' storage, the optimizer's
  // state) are other tensors than at the last call, as after loading a
  // checkpoint: a CUDA graph captured of step() must then be captured anew.
  bool prepare(double lr);

  // Device side: clips the global L2 norm of the gradients to
  // config.max_grad_norm (when > 0), then updates the parameters as LibTorch's
  // optimizer would. Returns the norm before clipping as a 0-dim tensor on the
  // device (0 with clipping off).
  torch::Tensor step();

 private:
  struct ParamSlot {
    torch::Tensor param;
    torch::optim::OptimizerParamState* state = nullptr;  // bound by prepare()
  };
  void bind_states();
  // On the CPU, whether parameter i's tensors are plain float32, so that
  // fused_adam can step it in one pass (learner/fused_adam.h).
  bool fusable(std::size_t i, const torch::Tensor& grad);
  // That pass, the gradient first scaled by `grad_scale` in place (the clip).
  void fused_adam(std::size_t i, const torch::Tensor& grad, float grad_scale);
  bool storage_moved();

  torch::optim::Optimizer& optimizer_;
  OptimizerConfig config_;
  bool adam_;
  std::vector<ParamSlot> slots_;
  bool cuda_ = false;
  // Row i: parameter i's numbers for this step, as step() reads them. Adam:
  // [lr / (1 - b1^t), sqrt(1 - b2^t)]; RMSprop: [lr, unused].
  torch::Tensor scalars_;
  // The data pointers step() last worked on, and scratch for the next look.
  std::vector<const void*> storage_, storage_scratch_;
};

// A learner's clip and step after backward: `device_step`'s (prepared by the
// caller) when given, else LibTorch's clip_grad_norm_ over `params` (when
// max_grad_norm > 0) and `optimizer.step()`. Returns the norm before clipping
// (0 with clipping off) as a 0-dim tensor on the parameters' device.
torch::Tensor clip_and_step(torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& params,
                            const OptimizerConfig& config, DeviceOptimizerStep* device_step);

}  // namespace seedrl
