// The two classic Atari torsos of strided convolutions (no padding), each
// followed by ReLU, then a fully connected layer and ReLU:
//   impala-shallow  IMPALA's shallow net (Espeholt et al. 2018, fig. 3 left):
//                   conv 8x8 stride 4 x16, conv 4x4 stride 2 x32, fc 256.
//   nature          the DQN net (Mnih et al. 2015, Nature): conv 8x8 stride 4
//                   x32, conv 4x4 stride 2 x64, conv 3x3 stride 1 x64, fc 512.
// Both are several times cheaper per frame than the deep ResNet, which is
// what a CPU-only learner needs. Frames are uint8 and scaled by 1/255.
#include <string>
#include <vector>

#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>

#include "image_torso_input.h"
#include "seedrl/model/torso.h"
#include "space_to_depth.h"

namespace seedrl {
namespace {

struct ConvLayer {
  std::int64_t channels, kernel, stride;
};

class StridedConvTorsoImpl : public torch::nn::Module, public PreparesInput {
 public:
  StridedConvTorsoImpl(std::int64_t h, std::int64_t w, std::int64_t c, const std::vector<ConvLayer>& layers,
                       std::int64_t hidden, double scale, torch::ScalarType dtype, bool uint8_frames)
      : scale_(scale), dtype_(dtype) {
    // The shape of the blocks that forward() takes for uint8 frames (prepare()).
    const ConvLayer& first = layers.front();
    if (uint8_frames && first.stride > 1 && first.kernel == 2 * first.stride && h % first.stride == 0 &&
        w % first.stride == 0)
      blocks_shape_ = {first.stride * first.stride * c, h / first.stride, w / first.stride};
    std::int64_t in = c;
    for (const ConvLayer& l : layers) {
      convs_.push_back(
          register_module("conv" + std::to_string(convs_.size()),
                          torch::nn::Conv2d(torch::nn::Conv2dOptions(in, l.channels, l.kernel).stride(l.stride))));
      in = l.channels;
      h = (h - l.kernel) / l.stride + 1;
      w = (w - l.kernel) / l.stride + 1;
    }
    fc_ = register_module("fc", torch::nn::Linear(h * w * in, hidden));
  }
  torch::Tensor prepare(const torch::Tensor& obs, const torch::Tensor& index) const override {
    if (!conv_over_blocks_applies(convs_[0], obs, dtype_)) return {};
    return frames_to_blocks(obs, index, convs_[0]->options.stride()->at(0), dtype_);
  }

  torch::Tensor forward(torch::Tensor x) {
    // The first layer over pixel blocks where that computes it (space_to_depth.h),
    // made here or ahead by prepare().
    if (is_prepared(x))
      x = conv2d_on_blocks(convs_[0], x, scale_, dtype_);
    else if (conv_over_blocks_applies(convs_[0], x, dtype_))
      x = conv2d_over_blocks(convs_[0], x, scale_, dtype_);
    else
      x = conv2d_in_input_dtype(convs_[0], hwc_to_nchw(x, scale_, dtype_));
    // ReLU in place on each layer's fresh output (its backward needs only that output).
    for (std::size_t i = 0; i < convs_.size(); ++i) {
      if (i > 0) x = conv2d_in_input_dtype(convs_[i], x);
      if (i + 1 == convs_.size()) x = flatten_after_conv(x);
      x.relu_();
    }
    return linear_in_input_dtype(fc_, x.flatten(1)).relu_().to(torch::kFloat32);
  }

 private:
  // Blocks from prepare(): the frames are uint8, so an input of the torso's
  // dtype in the blocks' shape can only be those.
  bool is_prepared(const torch::Tensor& x) const {
    return !blocks_shape_.empty() && x.dim() == 4 && x.scalar_type() == dtype_ && x.size(1) == blocks_shape_[0] &&
           x.size(2) == blocks_shape_[1] && x.size(3) == blocks_shape_[2];
  }

  double scale_;
  torch::ScalarType dtype_;
  std::vector<std::int64_t> blocks_shape_;  // [s*s*C, H/s, W/s]; empty: uint8 frames are not blocked
  std::vector<torch::nn::Conv2d> convs_;
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(StridedConvTorso);

Torso make_strided_conv_torso(const ArraySpec& observation, const std::string& name,
                              const std::vector<ConvLayer>& layers, std::int64_t hidden, const std::string& precision) {
  // The smallest frame every layer fits: each layer needs at least its kernel.
  std::int64_t min_side = 1;
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) min_side = (min_side - 1) * it->stride + it->kernel;
  require_image(observation, name, min_side);
  const auto& s = observation.shape;
  const double scale = observation.dtype == DType::kUInt8 ? 1.0 / 255.0 : 1.0;
  const bool uint8_frames = observation.dtype == DType::kUInt8;
  return Torso{torch::nn::AnyModule(
                   StridedConvTorso(s[0], s[1], s[2], layers, hidden, scale, torso_dtype(precision), uint8_frames)),
               static_cast<int>(hidden)};
}

}  // namespace

Torso make_impala_shallow_torso(const ArraySpec& observation, const std::string& precision) {
  return make_strided_conv_torso(observation, "impala-shallow", {{16, 8, 4}, {32, 4, 2}}, 256, precision);
}

Torso make_nature_torso(const ArraySpec& observation, const std::string& precision) {
  return make_strided_conv_torso(observation, "nature", {{32, 8, 4}, {64, 4, 2}, {64, 3, 1}}, 512, precision);
}

}  // namespace seedrl
