#include "seedrl/inference/action_selector.h"

#include <torch/torch.h>

#include "seedrl/model/policy_distribution.h"

namespace seedrl {
namespace {

class SamplingSelector final : public ActionSelector {
 public:
  explicit SamplingSelector(const ActionSpec& action) : dist_(make_policy_distribution(action)) {}
  torch::Tensor select(const torch::Tensor& params, const torch::Tensor&) override {
    return dist_->sample(params).to(torch::kCPU).contiguous();
  }

 private:
  std::unique_ptr<PolicyDistribution> dist_;
};

}  // namespace

std::unique_ptr<ActionSelector> make_sampling_selector(const ActionSpec& action) {
  return std::make_unique<SamplingSelector>(action);
}

}  // namespace seedrl
