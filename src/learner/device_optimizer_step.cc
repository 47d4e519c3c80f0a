#include "seedrl/learner/device_optimizer_step.h"

#include "seedrl/util/optimizer_state_key.h"

#include "fused_adam.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <torch/optim/adam.h>
#include <torch/optim/rmsprop.h>
#include <torch/torch.h>

namespace seedrl {

namespace {

using StateMap = OptimizerStateMap;

// The parameter group that holds every one of `params`: its options are the step's.
const torch::optim::OptimizerParamGroup& group_of(torch::optim::Optimizer& optimizer,
                                                  const std::vector<torch::Tensor>& params) {
  for (const auto& group : optimizer.param_groups()) {
    const auto holds = [&](const torch::Tensor& p) {
      for (const auto& q : group.params())
        if (q.unsafeGetTensorImpl() == p.unsafeGetTensorImpl()) return true;
      return false;
    };
    bool all = true;
    for (const auto& p : params) all = all && holds(p);
    if (all) return group;
  }
  throw std::invalid_argument("DeviceOptimizerStep: the parameters are not all in one of the optimizer's groups");
}

}  // namespace

DeviceOptimizerStep::DeviceOptimizerStep(torch::optim::Optimizer& optimizer, const OptimizerConfig& config,
                                         std::vector<torch::Tensor> params)
    : optimizer_(optimizer), config_(config), adam_(config.name == "adam") {
  if (params.empty()) throw std::invalid_argument("DeviceOptimizerStep: no parameters");
  const auto& options = group_of(optimizer_, params).options();
  if (adam_) {
    const auto* o = dynamic_cast<const torch::optim::AdamOptions*>(&options);
    if (!o || o->weight_decay() != 0 || o->amsgrad())
      throw std::invalid_argument("DeviceOptimizerStep: plain Adam expected (no weight decay, no AMSGrad)");
  } else if (config.name == "rmsprop") {
    const auto* o = dynamic_cast<const torch::optim::RMSpropOptions*>(&options);
    if (!o || o->weight_decay() != 0 || o->centered())
      throw std::invalid_argument("DeviceOptimizerStep: plain RMSprop expected (no weight decay, not centred)");
  } else {
    throw std::invalid_argument("--optimizer: unknown optimizer '" + config.name + "' (valid: adam, rmsprop)");
  }
  for (auto& p : params) slots_.push_back({std::move(p), nullptr});
  const auto device = slots_.front().param.device();
  const auto rows = static_cast<std::int64_t>(slots_.size());
  cuda_ = device.is_cuda();
  scalars_ = torch::zeros({rows, 2}, torch::TensorOptions().dtype(torch::kFloat32).device(device));
}

void DeviceOptimizerStep::bind_states() {
  using Key = typename StateMap::key_type;
  auto& states = optimizer_.state();
  for (auto& s : slots_) {
    const Key key = optimizer_state_key<Key>(s.param);
    auto it = states.find(key);
    if (it == states.end()) {
      // As LibTorch's own step() creates it on a parameter's first update.
      auto zeros = [&] { return torch::zeros_like(s.param, torch::MemoryFormat::Preserve); };
      std::unique_ptr<torch::optim::OptimizerParamState> state;
      if (adam_) {
        auto a = std::make_unique<torch::optim::AdamParamState>();
        a->step(0);
        a->exp_avg(zeros());
        a->exp_avg_sq(zeros());
        state = std::move(a);
      } else {
        auto r = std::make_unique<torch::optim::RMSpropParamState>();
        r->step(0);
        r->square_avg(zeros());
        if (config_.rmsprop_momentum > 0) r->momentum_buffer(zeros());
        state = std::move(r);
      }
      it = states.insert_or_assign(key, std::move(state)).first;
    }
    s.state = it->second.get();
  }
}

bool DeviceOptimizerStep::storage_moved() {
  std::vector<const void*>& now = storage_scratch_;
  now.clear();
  for (const auto& s : slots_) {
    now.push_back(s.param.data_ptr());
    if (adam_) {
      const auto& st = static_cast<const torch::optim::AdamParamState&>(*s.state);
      now.push_back(st.exp_avg().data_ptr());
      now.push_back(st.exp_avg_sq().data_ptr());
    } else {
      const auto& st = static_cast<const torch::optim::RMSpropParamState&>(*s.state);
      now.push_back(st.square_avg().data_ptr());
      now.push_back(st.momentum_buffer().defined() ? st.momentum_buffer().data_ptr() : nullptr);
    }
  }
  const bool moved = now != storage_;
  std::swap(now, storage_);
  return moved;
}

bool DeviceOptimizerStep::prepare(double lr) {
  // Re-bound every time: loading a checkpoint replaces the state objects.
  bind_states();
  const bool moved = storage_moved();
  auto host = torch::empty(scalars_.sizes(), torch::TensorOptions().dtype(torch::kFloat32).pinned_memory(cuda_));
  host.select(1, 1).fill_(0);
  auto h = host.accessor<float, 2>();  // computed in double, used in float as LibTorch's kernels do
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    // LibTorch 1.x's base state class has no step count: the concrete ones do.
    std::int64_t t = 0;
    if (adam_) {
      auto& st = static_cast<torch::optim::AdamParamState&>(*slots_[i].state);
      st.step(t = st.step() + 1);
    } else {
      auto& st = static_cast<torch::optim::RMSpropParamState&>(*slots_[i].state);
      st.step(t = st.step() + 1);
    }
    if (adam_) {
      h[i][0] = static_cast<float>(lr / (1 - std::pow(config_.adam_beta1, static_cast<double>(t))));
      h[i][1] = static_cast<float>(std::sqrt(1 - std::pow(config_.adam_beta2, static_cast<double>(t))));
    } else {
      h[i][0] = static_cast<float>(lr);
    }
  }
  // Queued behind the previous step (which may still read scalars_), and
  // asynchronous on a GPU: LibTorch's caching host allocator does not hand
  // this page-locked block out again until the copy has run.
  scalars_.copy_(host, /*non_blocking=*/cuda_);
  return moved;
}

bool DeviceOptimizerStep::fusable(std::size_t i, const torch::Tensor& grad) {
  if (cuda_ || !adam_) return false;
  auto& p = slots_[i].param;
  auto& st = static_cast<torch::optim::AdamParamState&>(*slots_[i].state);
  const auto plain = [&](const torch::Tensor& t) {
    return t.device().is_cpu() && t.scalar_type() == torch::kFloat32 && t.is_contiguous() && t.numel() == p.numel();
  };
  return plain(p) && plain(grad) && plain(st.exp_avg()) && plain(st.exp_avg_sq());
}

void DeviceOptimizerStep::fused_adam(std::size_t i, const torch::Tensor& grad, float grad_scale) {
  auto& p = slots_[i].param;
  auto& st = static_cast<torch::optim::AdamParamState&>(*slots_[i].state);
  const float* row = scalars_.data_ptr<float>() + 2 * static_cast<std::int64_t>(i);
  const AdamScalars s{config_.adam_beta1, config_.adam_beta2, config_.adam_eps, row[0], row[1]};
  fused_adam_step(p.data_ptr<float>(), grad.data_ptr<float>(), st.exp_avg().data_ptr<float>(),
                  st.exp_avg_sq().data_ptr<float>(), p.numel(), s, grad_scale);
}

torch::Tensor DeviceOptimizerStep::step() {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  grads.reserve(slots_.size());
  for (const auto& s : slots_) {
    if (!s.param.grad().defined())
      throw std::logic_error("DeviceOptimizerStep: a parameter has no gradient (every one must get one each update)");
    grads.push_back(s.param.grad());
  }
  bool all_fusable = true;
  for (std::size_t i = 0; i < slots_.size() && all_fusable; ++i) all_fusable = fusable(i, grads[i]);
  if (all_fusable) {
    // A CPU Adam over plain tensors: the clip's norm in one pass over the
    // gradients and its scaling inside the Adam pass, instead of ~20 tensor
    // ops (clip_grad_norm_'s arithmetic, the norm accumulated in double).
    double norm = 0;
    float scale = 1;
    if (config_.max_grad_norm > 0) {
      double squares = 0;
      for (const auto& g : grads) squares += sum_of_squares(g.data_ptr<float>(), g.numel());
      norm = std::sqrt(squares);
      const double coef = config_.max_grad_norm / (norm + 1e-6);
      if (!(coef >= 1)) scale = static_cast<float>(coef);  // NaN too, as clip_grad_norm_ would
    }
    for (std::size_t i = 0; i < slots_.size(); ++i) fused_adam(i, grads[i], scale);
    return torch::scalar_tensor(norm, scalars_.options());
  }
  torch::Tensor norm;
  if (config_.max_grad_norm > 0) {
    // clip_grad_norm_'s arithmetic, with the norm left on the device.
    std::vector<torch::Tensor> norms;
    norms.reserve(grads.size());
    for (const auto& g : grads) norms.push_back(g.norm(2));
    norm = norms.size() == 1 ? norms.front() : torch::stack(norms).norm(2);
    auto coef = (config_.max_grad_norm / (norm + 1e-6)).clamp_max(1.0);
    for (auto& g : grads) g.mul_(coef);
  } else {
    norm = torch::zeros({}, scalars_.options());
  }
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    auto& p = slots_[i].param;
    const auto& g = grads[i];
    if (fusable(i, g)) {
      fused_adam(i, g, 1.f);
      continue;
    }
    auto row = scalars_[static_cast<std::int64_t>(i)];
    if (adam_) {
      auto& st = static_cast<torch::optim::AdamParamState&>(*slots_[i].state);
      st.exp_avg().mul_(config_.adam_beta1).add_(g, 1 - config_.adam_beta1);
      st.exp_avg_sq().mul_(config_.adam_beta2).addcmul_(g, g, 1 - config_.adam_beta2);
      auto denom = (st.exp_avg_sq().sqrt() / row[1]).add_(config_.adam_eps);
      // p += -(lr / bc1) * m / denom, as LibTorch's addcdiv_ with -step_size.
      p.addcdiv_(st.exp_avg() * row[0], denom, -1);
    } else {
      auto& st = static_cast<torch::optim::RMSpropParamState&>(*slots_[i].state);
      st.square_avg().mul_(config_.rmsprop_alpha).addcmul_(g, g, 1 - config_.rmsprop_alpha);
      auto avg = st.square_avg().sqrt().add_(config_.rmsprop_eps);
      if (config_.rmsprop_momentum > 0) {
        auto& buf = st.momentum_buffer();
        buf.mul_(config_.rmsprop_momentum).addcdiv_(g, avg);
        p.sub_(buf * row[0]);
      } else {
        p.addcdiv_(g * row[0], avg, -1);
      }
    }
  }
  return norm;
}

torch::Tensor clip_and_step(torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& params,
                            const OptimizerConfig& config, DeviceOptimizerStep* device_step) {
  if (device_step) return device_step->step();
  double norm = 0;
  if (config.max_grad_norm > 0) norm = torch::nn::utils::clip_grad_norm_(params, config.max_grad_norm);
  optimizer.step();
  return torch::scalar_tensor(norm, torch::TensorOptions().dtype(torch::kFloat64).device(params.front().device()));
}

}  // namespace seedrl
