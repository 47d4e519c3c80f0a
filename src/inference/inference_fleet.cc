#include "seedrl/inference/inference_fleet.h"

#include <stdexcept>

namespace seedrl {

InferenceTotals& InferenceTotals::operator+=(const InferenceTotals& o) {
  batches += o.batches;
  rows += o.rows;
  forward_ns += o.forward_ns;
  record_ns += o.record_ns;
  graph_batches += o.graph_batches;
  sealed += o.sealed;
  timeouts += o.timeouts;
  fill_ns += o.fill_ns;
  idle_ns += o.idle_ns;
  return *this;
}

InferenceFleet::InferenceFleet(const std::vector<torch::Device>& devices, const InferenceFleetConfig& config,
                               const ServerFactory& make_server)
    : devices_(devices), config_(config) {
  if (devices_.empty()) throw std::invalid_argument("--inference-devices: no device given");
  for (int d = 0; d < size(); ++d) {
    const int envs = local_envs(d) + config_.remote_envs;  // any device may serve every remote env
    const int buffers = RequestBatcher::buffers_needed(envs, config_.batch_size, config_.threads_per_device);
    batchers_.push_back(std::make_unique<RequestBatcher>(config_.observation, config_.batch_size, config_.timeout,
                                                         buffers, devices_[d].is_cuda()));
    batchers_.back()->track_live_envs(local_envs(d), config_.batch_auto);  // remote envs add themselves
    batcher_ptrs_.push_back(batchers_.back().get());
    servers_.push_back(make_server(*batchers_.back(), devices_[d]));
    servers_.back()->use_cuda_graphs(config_.cuda_graphs);
    servers_.back()->answer_first(config_.answer_first);
  }
}

InferenceFleet::InferenceFleet(const std::vector<torch::Device>& devices, const InferenceFleetConfig& config,
                               TrajectoryStore* store, ParamPublisher& publisher,
                               ActorCriticStep::ModelFactory make_model, const ActionSpec& action)
    : InferenceFleet(devices, config, [&](RequestBatcher& batcher, torch::Device device) {
        return std::make_unique<InferenceServer>(
            batcher, store, publisher, std::make_unique<ActorCriticStep>(make_model, action, config.num_slots()),
            config.num_slots(), config.threads_per_device, device);
      }) {}

InferenceFleet::~InferenceFleet() { stop(); }

int InferenceFleet::local_envs(int device) const {
  // Threads device, device + N, device + 2N, ... of each pool.
  const int n = size();
  auto threads_on = [&](int threads) { return threads > device ? (threads - device + n - 1) / n : 0; };
  return threads_on(config_.local_actors) * config_.envs_per_actor + threads_on(config_.eval_envs);
}

void InferenceFleet::start() {
  for (auto& s : servers_) s->start();
}

void InferenceFleet::stop() {
  // Close every batcher first: an actor blocked on one device must not wait
  // for another device's threads to join.
  for (auto& b : batchers_) b->close();
  for (auto& s : servers_) s->stop();
}

InferenceTotals InferenceFleet::totals(int device) const {
  const InferenceStats& is = servers_[device]->stats();
  const RequestBatcher& b = *batchers_[device];
  InferenceTotals t;
  t.batches = is.batches.load();
  t.rows = is.rows.load();
  t.forward_ns = is.forward_ns.load();
  t.record_ns = is.record_ns.load();
  t.graph_batches = is.graph_batches.load();
  t.sealed = b.batches();
  t.timeouts = b.timeouts();
  t.fill_ns = b.fill_ns();
  t.idle_ns = b.idle_ns();
  return t;
}

InferenceTotals InferenceFleet::totals() const {
  InferenceTotals sum;
  for (int d = 0; d < size(); ++d) sum += totals(d);
  return sum;
}

}  // namespace seedrl
