// R2D2's recurrent Q-network, time-major like AgentNet: torso -> LSTM core
// whose input is the torso features, the previous action one-hot and the
// previous reward -> dueling head Q = V + A - mean(A) (Wang et al. 2016), each
// stream one hidden ReLU layer. Without a core (--no-lstm) the head sits on
// the torso features (previous action and reward unused).
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>

#include "seedrl/env/spec.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/model_config.h"

namespace seedrl {

struct QOutput {
  torch::Tensor q;  // [T, B, A]
  CoreState state;  // after the last step
};

class QNetImpl : public torch::nn::Module {
 public:
  QNetImpl(const EnvSpec& env, const ModelConfig& config);

  // obs [T, B, ...obs]; first [T, B] (state zeroed before those steps);
  // prev_action [T, B] float action index, < 0 for none (episode start);
  // prev_reward [T, B] (ignored where first is set).
  QOutput forward(const torch::Tensor& obs, const torch::Tensor& first, const torch::Tensor& prev_action,
                  const torch::Tensor& prev_reward, CoreState state);

  CoreState initial_state(std::int64_t batch, torch::Device device = torch::kCPU) const;
  bool has_core() const { return !lstm_.is_empty(); }
  int core_size() const { return config_.lstm_size; }
  int num_actions() const { return num_actions_; }

 private:
  ModelConfig config_;
  int num_actions_;
  torch::nn::AnyModule torso_;
  torch::nn::LSTMCell lstm_{nullptr};
  torch::nn::Sequential value_{nullptr}, advantage_{nullptr};
};
TORCH_MODULE(QNet);

}  // namespace seedrl
