// The MinAtar network (Young & Tian 2019, arXiv 1903.03176; the reference
// examples in kenjyoung/MinAtar): one 3x3 conv with 16 channels, stride 1
// and no padding (10x10 -> 8x8), ReLU, then a 128-unit fully connected ReLU
// layer. MinAtar channels are 0/1, so the input is used unscaled.
#include <torch/nn/functional/activation.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>

#include "image_torso_input.h"
#include "seedrl/model/torso.h"

namespace seedrl {
namespace {

constexpr std::int64_t kMinatarChannels = 16, kMinatarKernel = 3, kMinatarHidden = 128;

class MinatarTorsoImpl : public torch::nn::Module {
 public:
  MinatarTorsoImpl(std::int64_t h, std::int64_t w, std::int64_t c, torch::ScalarType dtype) : dtype_(dtype) {
    conv_ = register_module("conv",
                            torch::nn::Conv2d(torch::nn::Conv2dOptions(c, kMinatarChannels, kMinatarKernel).stride(1)));
    const std::int64_t flat = (h - kMinatarKernel + 1) * (w - kMinatarKernel + 1) * kMinatarChannels;
    fc_ = register_module("fc", torch::nn::Linear(flat, kMinatarHidden));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(flatten_after_conv(conv2d_in_input_dtype(conv_, hwc_to_nchw(x, 1.0, dtype_))));
    return torch::relu(linear_in_input_dtype(fc_, x.flatten(1))).to(torch::kFloat32);
  }

 private:
  torch::ScalarType dtype_;
  torch::nn::Conv2d conv_{nullptr};
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(MinatarTorso);

}  // namespace

Torso make_minatar_torso(const ArraySpec& observation, const std::string& precision) {
  require_image(observation, "minatar", kMinatarKernel);
  const auto& s = observation.shape;
  return Torso{torch::nn::AnyModule(MinatarTorso(s[0], s[1], s[2], torso_dtype(precision))),
               static_cast<int>(kMinatarHidden)};
}

}  // namespace seedrl
