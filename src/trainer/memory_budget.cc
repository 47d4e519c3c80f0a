#include "seedrl/trainer/memory_budget.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "seedrl/env/registry.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/model/torso.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/r2d2_setup.h"
#include "seedrl/trainer/remote_training.h"
#include "seedrl/trainer/sac_setup.h"
#include "seedrl/trainer/vtrace_algorithm.h"
#include "seedrl/util/available_memory.h"

namespace seedrl {
namespace {

constexpr double kFloat = 4;

// Sizes of a torso: its parameters, its output features and the floats of
// activations one observation leaves for the backward pass. The layer sizes
// are those of src/model/*_torso.cc (test/trainer/memory_budget_test.cc
// checks the counts against the built modules).
struct TorsoSize {
  double params = 0, features = 0, activations = 0;
};

double linear(double in, double out) { return in * out + out; }
double conv3x3(double in, double out) { return in * out * 9 + out; }

TorsoSize torso_size(const ArraySpec& obs, const ModelConfig& m) {
  const std::string kind = resolve_torso(obs, m.torso);
  const double numel = static_cast<double>(obs.numel());
  TorsoSize t;
  t.activations = numel;  // the observation as float
  if (kind == "mlp") {
    double in = numel;
    for (const int h : m.hidden) {
      t.params += linear(in, h);
      t.activations += 2.0 * h;  // before and after the nonlinearity
      in = h;
    }
    t.features = m.hidden.empty() ? 0 : m.hidden.back();
    return t;
  }
  if (obs.shape.size() != 3) return t;  // make_torso refuses it
  double h = static_cast<double>(obs.shape[0]), w = static_cast<double>(obs.shape[1]);
  const double c = static_cast<double>(obs.shape[2]);
  if (kind == "minatar") {  // conv 3x3 x16 (no padding), fc 128
    const double flat = std::max(0.0, h - 2) * std::max(0.0, w - 2) * 16;
    t.params = conv3x3(c, 16) + linear(flat, 128);
    t.activations += 2 * flat + 2 * 128;
    t.features = 128;
  } else if (kind == "impala") {  // stacks of 16, 32, 32 channels, fc 256
    double in = c;
    for (const double out : {16.0, 32.0, 32.0}) {
      t.params += conv3x3(in, out) + 4 * conv3x3(out, out);  // the conv and two residual blocks
      t.activations += out * h * w;
      h = std::ceil(h / 2), w = std::ceil(w / 2);
      t.activations += 11 * out * h * w;  // pool, two blocks of relu-conv-relu-conv, their sums
      in = out;
    }
    t.params += linear(h * w * in, 256);
    t.activations += 2 * 256;
    t.features = 256;
  } else if (kind == "impala-shallow" || kind == "nature") {  // strided convs (no padding), fc
    struct Layer {
      double channels, kernel, stride;
    };
    const bool shallow = kind == "impala-shallow";
    const std::vector<Layer> layers =
        shallow ? std::vector<Layer>{{16, 8, 4}, {32, 4, 2}} : std::vector<Layer>{{32, 8, 4}, {64, 4, 2}, {64, 3, 1}};
    double in = c;
    for (const Layer& l : layers) {
      t.params += in * l.channels * l.kernel * l.kernel + l.channels;
      h = std::floor((h - l.kernel) / l.stride) + 1, w = std::floor((w - l.kernel) / l.stride) + 1;
      t.activations += 2 * l.channels * h * w;  // before and after the ReLU
      in = l.channels;
    }
    t.features = shallow ? 256 : 512;
    t.params += linear(h * w * in, t.features);
    t.activations += 2 * t.features;
  }
  return t;
}

double lstm_cell(double in, double hidden) { return 4 * hidden * (in + hidden) + 8 * hidden; }

struct ModelSize {
  double params = 0, activations = 0;
  std::string flag;
};

// SAC: the actor (an MLP and a mean and log-std head) and four critics, the
// two online ones and their targets, each an MLP over observation and action.
ModelSize sac_model_size(const TrainConfig& config, const EnvSpec& spec) {
  ModelConfig mlp = config.model;
  mlp.torso = "mlp";
  const double dim = spec.action.dim;
  const TorsoSize actor = torso_size(spec.observation, mlp);
  ArraySpec critic_input;
  critic_input.shape = {static_cast<std::int64_t>(spec.observation.numel()) + spec.action.dim};
  const TorsoSize critic = torso_size(critic_input, mlp);
  ModelSize size;
  size.params = actor.params + linear(actor.features, 2 * dim) + 4 * (critic.params + linear(critic.features, 1));
  size.activations = actor.activations + 4 * critic.activations + 4 * dim;
  size.flag = "--hidden";
  return size;
}

ModelSize model_size(const TrainConfig& config, const EnvSpec& spec) {
  if (config.algo == "sac") return sac_model_size(config, spec);
  const ModelConfig& m = config.model;
  const TorsoSize torso = torso_size(spec.observation, m);
  double features = torso.features, lstm = 0, heads = 0, torsos = torso.params;
  double activations = torso.activations;
  const bool r2d2 = config.algo == "r2d2";
  const double actions = spec.action.is_discrete() ? spec.action.num_actions : spec.action.dim;
  if (m.prev_action_input && !r2d2) features += actions;  // the previous action's one-hot joins the features
  if (m.lstm) {
    lstm = lstm_cell(features + (r2d2 ? actions + 1 : 0), m.lstm_size);
    activations += 6.0 * m.lstm_size;  // gates, h and c
    features = m.lstm_size;
  }
  if (r2d2) {  // dueling heads: value and advantage MLPs of one hidden layer each
    heads = 2 * linear(features, features) + linear(features, 1) + linear(features, actions);
    activations += 2 * features;
  } else {
    double value_features = features;
    if (m.separate_value_net && !m.lstm) {
      torsos += torso.params;
      activations += torso.activations;
      value_features = torso.features + (m.prev_action_input ? actions : 0);
    }
    heads = linear(features, actions) + linear(value_features, 1) + (spec.action.is_discrete() ? 0 : actions);
  }
  ModelSize size;
  size.params = torsos + lstm + heads;
  size.activations = activations + 2 * (actions + 1);
  const std::string kind = resolve_torso(spec.observation, m.torso);
  size.flag = lstm > torsos ? "--lstm-size" : kind == "mlp" ? "--hidden" : "--model";
  return size;
}

// Bytes of one unroll in the trajectory store (its constructor's pools).
double unroll_bytes(const UnrollLayout& l) {
  const double entry = static_cast<double>(l.observation.bytes()) + kFloat * (l.action_width + l.policy_size + 1) + 1;
  const double marks = (l.length - 1) / std::max(1, l.length - l.overlap) + 1;
  return entry * l.length + 2 * kFloat * marks * l.core_size;
}

}  // namespace

double parameter_count(const TrainConfig& config, const EnvSpec& spec, std::string* flag) {
  const ModelSize size = model_size(config, spec);
  if (flag) *flag = size.flag;
  return size.params;
}

double MemoryEstimate::total() const {
  return std::accumulate(items.begin(), items.end(), 0.0, [](double s, const MemoryItem& i) { return s + i.bytes; });
}

const MemoryItem& MemoryEstimate::largest() const {
  return *std::max_element(items.begin(), items.end(),
                           [](const MemoryItem& a, const MemoryItem& b) { return a.bytes < b.bytes; });
}

MemoryEstimate estimate_memory(const TrainConfig& config, const EnvSpec& spec, HostCopies copies) {
  MemoryEstimate e;
  const bool r2d2 = config.algo == "r2d2";
  const ModelSize model = model_size(config, spec);

  // Each CPU learner replica: weights, gradients, the optimizer's state (and
  // R2D2's target network); each CPU inference device: one copy; the
  // publisher: the newest snapshot and the one an inference thread may still
  // be copying from.
  const auto& opt = config.learner.optimizer;
  const int state = opt.name == "rmsprop" ? 1 + (opt.rmsprop_momentum > 0 ? 1 : 0) : 2;
  const int per_learner = 2 + state + (r2d2 ? 1 : 0);
  const int model_copies = copies.learners * per_learner + copies.inference + 2;
  e.items.push_back({model.flag,
                     fmt::format("the model ({:.3g} parameters x {} copies: weights, gradients and {} state of {} "
                                 "CPU learner(s), {} CPU inference copy(ies), 2 published)",
                                 model.params, model_copies, opt.name, copies.learners, copies.inference),
                     model.params * kFloat * model_copies});

  // Activations kept for the backward pass, over a batch of whole unrolls,
  // split among the CPU learners (their gradients are freed layer by layer).
  // The estimate leans low: it is there to refuse what cannot fit, not to
  // refuse a run that might.
  const int length = r2d2                   ? config.r2d2.burn_in + config.unroll_length + 1
                     : config.algo == "sac" ? 1
                                            : config.unroll_length + 1;
  const double rows = static_cast<double>(config.learner.batch_size) * length;
  const double cpu_share = copies.learners > 0 ? 1.0 : 0.0;
  e.items.push_back({"--batch-size",
                     fmt::format("learner activations ({} unrolls of {} steps)", config.learner.batch_size, length),
                     cpu_share * rows * model.activations * kFloat * (r2d2 ? 2 : 1)});
  e.items.push_back({"--inference-batch", fmt::format("inference activations (batches of {})", config.inference_batch),
                     static_cast<double>(copies.inference) * config.inference_threads * config.inference_batch *
                         model.activations * kFloat});

  // The trajectory store: one unroll filling per env, the queue, a batch.
  const bool sac = config.algo == "sac";
  const UnrollLayout layout = r2d2  ? r2d2_sequence_layout(config, spec)
                              : sac ? sac_sequence_layout(config, spec)
                                    : vtrace_unroll_layout(config, spec);
  // In double: --actors times --envs-per-actor may pass what an int holds.
  const double envs = static_cast<double>(config.actors) * config.envs_per_actor + net::remote_slots(config) +
                      (r2d2 ? config.r2d2.eval_envs : 0);
  const bool replayed = r2d2 || sac;
  const double pool = envs + config.queue_capacity + (replayed ? 1 : config.learner.batch_size);
  // and the learner's batches gathered from it (one in use, one prefetched).
  const double batches = replayed ? 0 : 2.0 * config.learner.batch_size;
  e.items.push_back({config.actors > 0 ? "--actors" : "--max-remote-envs",
                     fmt::format("trajectories ({:.0f} unrolls of {} steps, {} bytes per observation)", pool + batches,
                                 layout.length, layout.observation.bytes()),
                     (pool + batches) * unroll_bytes(layout)});

  if (replayed) {
    const double replay = static_cast<double>(r2d2::Replay::bytes_for(layout, config.r2d2.replay_capacity));
    e.items.push_back({"--replay-capacity",
                       fmt::format("the replay ({} sequences of {} steps)", config.r2d2.replay_capacity, layout.length),
                       replay + 2.0 * config.learner.batch_size * unroll_bytes(layout)});
  }
  return e;
}

void check_memory(const MemoryEstimate& estimate, double available) {
  const double total = estimate.total();
  if (available <= 0 || total <= available * 0.9) return;
  const MemoryItem& top = estimate.largest();
  throw std::invalid_argument(
      fmt::format("{}: {} would take about {}, the whole run about {}: more than the {} of "
                  "memory available",
                  top.flag, top.what, memory_text(top.bytes), memory_text(total), memory_text(available)));
}

MemoryEstimate check_train_memory(const TrainConfig& run) {
  if (run.model.hidden.size() > static_cast<std::size_t>(kMaxHiddenLayers))
    throw std::invalid_argument(
        fmt::format("--hidden: {} layers; the MLP may have at most {}", run.model.hidden.size(), kMaxHiddenLayers));
  TrainConfig config = run;
  resolve_defaults(config);
  const Placement placement = resolve_placement(config);
  const EnvSpec spec = EnvRegistry::builtin().make(config.env, config.env_options)->spec();
  HostCopies copies;
  copies.learners = static_cast<int>(std::count_if(placement.learner.begin(), placement.learner.end(),
                                                   [](const torch::Device& d) { return d.is_cpu(); }));
  copies.inference = static_cast<int>(std::count_if(placement.inference.begin(), placement.inference.end(),
                                                    [](const torch::Device& d) { return d.is_cpu(); }));
  const MemoryEstimate estimate = estimate_memory(config, spec, copies);
  const double available = static_cast<double>(available_memory_bytes());
  check_memory(estimate, available);
  return estimate;
}

}  // namespace seedrl
