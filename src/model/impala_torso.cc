// The IMPALA deep ResNet torso (Espeholt et al. 2018, arXiv 1802.01561,
// fig. 3, and the TorchBeast/SEED RL implementations): three stacks of
//   conv 3x3 (same padding) -> max-pool 3x3 stride 2 (same padding)
//   -> 2 x residual block [ReLU, conv 3x3, ReLU, conv 3x3, + input]
// with 16, 32, 32 channels, then ReLU, fully connected 256, ReLU. Frames are
// uint8 and scaled by 1/255 (float images are used as
// they are). Each pool maps a side s to ceil(s / 2), so
// 84x84 frames leave 11x11x32 features.
#include <string>
#include <vector>

#include <torch/nn/functional/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/pooling.h>

#include "image_torso_input.h"
#include "seedrl/model/torso.h"

namespace seedrl {
namespace {

constexpr std::int64_t kStackChannels[] = {16, 32, 32};
constexpr std::int64_t kImpalaHidden = 256;

torch::nn::Conv2d conv3x3(std::int64_t in, std::int64_t out) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).stride(1).padding(1));
}

class ResidualBlockImpl : public torch::nn::Module {
 public:
  explicit ResidualBlockImpl(std::int64_t channels)
      : conv0_(register_module("conv0", conv3x3(channels, channels))),
        conv1_(register_module("conv1", conv3x3(channels, channels))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = conv2d_in_input_dtype(conv0_, torch::relu(x));
    y = conv2d_in_input_dtype(conv1_, torch::relu(y));
    return x + y;
  }

 private:
  torch::nn::Conv2d conv0_, conv1_;
};
TORCH_MODULE(ResidualBlock);

class ConvStackImpl : public torch::nn::Module {
 public:
  ConvStackImpl(std::int64_t in, std::int64_t out)
      : conv_(register_module("conv", conv3x3(in, out))),
        pool_(register_module("pool", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(3).stride(2).padding(1)))),
        res0_(register_module("res0", ResidualBlock(out))),
        res1_(register_module("res1", ResidualBlock(out))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    return res1_->forward(res0_->forward(pool_->forward(conv2d_in_input_dtype(conv_, x))));
  }

 private:
  torch::nn::Conv2d conv_;
  torch::nn::MaxPool2d pool_;
  ResidualBlock res0_, res1_;
};
TORCH_MODULE(ConvStack);

// Max-pool 3x3, stride 2, padding 1: floor((s + 2 - 3) / 2) + 1 = ceil(s / 2).
std::int64_t pooled(std::int64_t s) { return (s + 1) / 2; }

class ImpalaTorsoImpl : public torch::nn::Module {
 public:
  ImpalaTorsoImpl(std::int64_t h, std::int64_t w, std::int64_t c, double scale, torch::ScalarType dtype)
      : scale_(scale), dtype_(dtype) {
    std::int64_t in = c;
    for (std::int64_t out : kStackChannels) {
      stacks_.push_back(register_module("stack" + std::to_string(stacks_.size()), ConvStack(in, out)));
      in = out;
      h = pooled(h);
      w = pooled(w);
    }
    fc_ = register_module("fc", torch::nn::Linear(h * w * in, kImpalaHidden));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = hwc_to_nchw(x, scale_, dtype_);
    for (auto& stack : stacks_) x = stack->forward(x);
    return torch::relu(linear_in_input_dtype(fc_, torch::relu(flatten_after_conv(x)).flatten(1))).to(torch::kFloat32);
  }

 private:
  double scale_;
  torch::ScalarType dtype_;
  std::vector<ConvStack> stacks_;
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(ImpalaTorso);

}  // namespace

Torso make_impala_torso(const ArraySpec& observation, const std::string& precision) {
  require_image(observation, "impala", 1);
  const auto& s = observation.shape;
  const double scale = observation.dtype == DType::kUInt8 ? 1.0 / 255.0 : 1.0;
  return Torso{torch::nn::AnyModule(ImpalaTorso(s[0], s[1], s[2], scale, torso_dtype(precision))),
               static_cast<int>(kImpalaHidden)};
}

}  // namespace seedrl
