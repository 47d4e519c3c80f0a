// Observation normalisation kept centrally in the model: running mean and
// variance as module buffers, so they are saved in checkpoints and reach
// every inference replica with the weights. Only the learner updates them
// (from the observations it trains on); inference just applies them.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

namespace seedrl {

class ObsNormalizerImpl : public torch::nn::Module {
 public:
  explicit ObsNormalizerImpl(std::int64_t dim, double clip = 10.0, double eps = 1e-8);

  // x [N, dim] -> clamp((x - mean) / sqrt(var + eps), -clip, clip)
  torch::Tensor forward(const torch::Tensor& x);
  // Merges the moments of x [N, dim] into the running ones (Chan et al.'s
  // parallel update, in double precision).
  void update(const torch::Tensor& x);

  torch::Tensor mean() const { return mean_; }
  torch::Tensor var() const { return var_; }
  double count() const;

 private:
  double clip_, eps_;
  torch::Tensor mean_, var_, count_;  // float64 buffers
};
TORCH_MODULE(ObsNormalizer);

}  // namespace seedrl
