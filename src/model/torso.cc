#include "seedrl/model/torso.h"

#include <stdexcept>

#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

#include "image_torso_input.h"

namespace seedrl {
namespace {

// Flattens any observation and applies Linear+activation layers.
class MlpTorsoImpl : public torch::nn::Module {
 public:
  MlpTorsoImpl(std::int64_t in, const std::vector<int>& hidden, bool tanh) {
    for (int h : hidden) {
      layers_->push_back(torch::nn::Linear(in, h));
      if (tanh)
        layers_->push_back(torch::nn::Tanh());
      else
        layers_->push_back(torch::nn::ReLU());
      in = h;
    }
    register_module("layers", layers_);
  }
  torch::Tensor forward(torch::Tensor x) { return layers_->forward(x.flatten(1).to(torch::kFloat32)); }

 private:
  torch::nn::Sequential layers_;
};
TORCH_MODULE(MlpTorso);

constexpr std::int64_t kMinatarMaxSide = 16;

}  // namespace

std::string resolve_torso(const ArraySpec& observation, const std::string& torso) {
  if (torso != "auto") return torso;
  if (observation.shape.size() == 3) {
    const bool small = observation.shape[0] <= kMinatarMaxSide && observation.shape[1] <= kMinatarMaxSide;
    return small ? "minatar" : "impala";
  }
  return "mlp";
}

Torso make_torso(const ArraySpec& observation, const ModelConfig& config) {
  const std::string kind = resolve_torso(observation, config.torso);
  if (kind == "mlp") {
    if (config.hidden.empty()) throw std::invalid_argument("--hidden: the MLP needs at least one layer");
    if (config.activation != "relu" && config.activation != "tanh")
      throw std::invalid_argument("--activation: unknown '" + config.activation + "' (valid: relu, tanh)");
    if (torso_dtype(config.precision) != torch::kFloat32)
      throw std::invalid_argument("--precision " + config.precision +
                                  ": only the image torsos compute in bfloat16; this model's "
                                  "torso is the MLP");
    const bool tanh = config.activation == "tanh";
    return Torso{torch::nn::AnyModule(MlpTorso(static_cast<std::int64_t>(observation.numel()), config.hidden, tanh)),
                 config.hidden.back()};
  }
  if (kind == "minatar") return make_minatar_torso(observation, config.precision);
  if (kind == "impala") return make_impala_torso(observation, config.precision);
  if (kind == "impala-shallow") return make_impala_shallow_torso(observation, config.precision);
  if (kind == "nature") return make_nature_torso(observation, config.precision);
  throw std::invalid_argument("--model: unknown torso '" + config.torso +
                              "' (valid: auto, mlp, minatar, impala, impala-shallow, nature)");
}

}  // namespace seedrl
