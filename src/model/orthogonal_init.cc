#include "seedrl/model/orthogonal_init.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <torch/nn/init.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>

namespace seedrl {
namespace {

void init_layer(torch::Tensor& weight, torch::Tensor& bias, double gain) {
  torch::nn::init::orthogonal_(weight, gain);
  if (bias.defined()) bias.zero_();
}

}  // namespace

void orthogonal_init(torch::nn::Module& module, double gain) {
  if (!std::isfinite(gain) || gain <= 0)
    throw std::invalid_argument("orthogonal_init: gain must be finite and positive, got " + std::to_string(gain));
  torch::NoGradGuard no_grad;
  for (const auto& m : module.modules(/*include_self=*/true)) {
    if (auto* linear = m->as<torch::nn::Linear>()) {
      init_layer(linear->weight, linear->bias, gain);
    } else if (auto* conv = m->as<torch::nn::Conv2d>()) {
      init_layer(conv->weight, conv->bias, gain);
    }
  }
}

}  // namespace seedrl
