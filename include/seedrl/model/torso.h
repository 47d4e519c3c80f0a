// Torsos turn observations [N, ...] into features [N, F]:
//   mlp      any observation, flattened; Linear+ReLU (or Tanh, --activation)
//            per --hidden width.
//   minatar  image [H, W, C] (uint8, HWC): the MinAtar paper's net (Young &
//            Tian 2019): conv 3x3 x16 stride 1 (no padding), ReLU, fully
//            connected 128, ReLU.
//   impala   image [H, W, C] (uint8, HWC, scaled by 1/255): the IMPALA deep
//            ResNet (Espeholt et al. 2018, fig. 3): three stacks of 16/32/32
//            channels, then ReLU, fully connected 256, ReLU.
//   impala-shallow  image: IMPALA's shallow net (fig. 3 left): conv 8x8/4 x16,
//            conv 4x4/2 x32, fully connected 256, ReLU after each.
//   nature   image: the DQN net (Mnih et al. 2015): conv 8x8/4 x32, 4x4/2 x64,
//            3x3/1 x64, fully connected 512, ReLU after each.
// Image torsos convert HWC to NCHW float inside the module, so environments
// and the batcher keep their native layout.
#pragma once

#include <string>

#include <torch/nn/modules/container/any.h>

#include "seedrl/env/spec.h"
#include "seedrl/model/model_config.h"

namespace seedrl {

struct Torso {
  torch::nn::AnyModule module;
  int features = 0;
};

// A torso whose first layer reads its frames in another form than they
// arrive in (the strided torsos' 4x4 pixel blocks, src/model/space_to_depth.h).
// prepare() makes that form from a batch of observations, and forward()
// accepts it in their place, so that a learner can make it once for several
// passes over the same frames, or as it gathers a minibatch's frames.
class PreparesInput {
 public:
  virtual ~PreparesInput() = default;
  // What forward() reads for obs[index] (obs [N, ...]; index int64 [M] into
  // its first dimension, or undefined for all of obs); an undefined tensor
  // where the layer reads the observations as they are (a GPU, a shape or
  // dtype the blocks do not fit).
  virtual torch::Tensor prepare(const torch::Tensor& obs, const torch::Tensor& index) const = 0;
};

// The torso `--model auto` picks: image observations (rank 3) get "minatar"
// up to 16x16 and "impala" above; everything else gets "mlp". Other names
// are returned unchanged.
std::string resolve_torso(const ArraySpec& observation, const std::string& torso);

// Throws std::invalid_argument naming --model for a torso that does not fit
// the observation (or --hidden for an empty MLP, or --precision bf16 for the
// MLP, which has no layers that gain from it).
Torso make_torso(const ArraySpec& observation, const ModelConfig& config);

// The image torsos on their own (observation must be [H, W, C]), computing
// in `precision` (fp32 | bf16; see ModelConfig::precision).
Torso make_minatar_torso(const ArraySpec& observation, const std::string& precision = "fp32");
Torso make_impala_torso(const ArraySpec& observation, const std::string& precision = "fp32");
Torso make_impala_shallow_torso(const ArraySpec& observation, const std::string& precision = "fp32");
Torso make_nature_torso(const ArraySpec& observation, const std::string& precision = "fp32");

}  // namespace seedrl
