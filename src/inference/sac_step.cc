#include "seedrl/inference/sac_step.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include "seedrl/model/squashed_gaussian.h"

namespace seedrl::sac {

SacStep::SacStep(ModelFactory make_model, const ActionSpec& action, const std::atomic<std::int64_t>* frames,
                 std::int64_t random_steps, std::uint64_t seed)
    : make_model_(std::move(make_model)),
      dim_(action.dim),
      low_(torch::tensor(action.low, torch::kFloat32)),
      high_(torch::tensor(action.high, torch::kFloat32)),
      frames_(frames),
      random_steps_(random_steps),
      generator_(at::make_generator<at::CPUGeneratorImpl>(seed)) {}

PolicyModel SacStep::make_model(torch::Device device) const {
  SacActor model = make_model_();
  model->to(device);
  model->eval();
  return {model.ptr(), [model](const std::vector<torch::Tensor>& in) mutable {
            // in[0] is [1, n, ...obs]; the actor takes [n, ...obs].
            const GaussianParams p = model->forward(in[0][0]);
            return std::vector<torch::Tensor>{torch::cat({p.mean, p.log_std}, -1).unsqueeze(0), torch::Tensor(),
                                              torch::Tensor()};
          }};
}

torch::Tensor SacStep::select(const torch::Tensor& output, const torch::Tensor&) {
  const torch::Tensor params = output.to(torch::kCPU, torch::kFloat32);
  const std::int64_t n = params.size(0);
  torch::Tensor squashed;
  if (frames_ && frames_->load(std::memory_order_relaxed) < random_steps_) {
    std::lock_guard<std::mutex> lock(mu_);
    squashed = torch::rand({n, dim_}, generator_, torch::kFloat32) * 2 - 1;
  } else {
    torch::Tensor noise;
    {
      std::lock_guard<std::mutex> lock(mu_);
      noise = torch::randn({n, dim_}, generator_, torch::kFloat32);
    }
    const torch::Tensor mean = params.narrow(1, 0, dim_);
    const torch::Tensor std = params.narrow(1, dim_, dim_).clamp(kMinLogStd, kMaxLogStd).exp();
    squashed = torch::tanh(mean + std * noise);
  }
  return to_box(squashed, low_, high_).contiguous();
}

torch::Tensor sac_mean_action(const torch::Tensor& output, const ActionSpec& action) {
  const torch::Tensor params = output.to(torch::kCPU, torch::kFloat32);
  const torch::Tensor mode = squashed_mode(params.narrow(-1, 0, action.dim));
  return to_box(mode, torch::tensor(action.low, torch::kFloat32), torch::tensor(action.high, torch::kFloat32))
      .contiguous();
}

}  // namespace seedrl::sac
