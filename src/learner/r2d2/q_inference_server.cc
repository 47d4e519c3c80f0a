#include "seedrl/learner/r2d2/q_inference_server.h"

#include <chrono>

#include <torch/torch.h>

#include "seedrl/util/cuda_graphs.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/device_stream.h"

namespace seedrl::r2d2 {

QInferenceServer::QInferenceServer(RequestBatcher& batcher, TrajectoryStore& store, ParamPublisher& publisher,
                                   ModelFactory make_model, std::unique_ptr<ActionSelector> selector,
                                   int train_envs, int num_slots, int threads, torch::Device device)
    : batcher_(batcher),
      store_(store),
      publisher_(publisher),
      make_model_(std::move(make_model)),
      selector_(std::move(selector)),
      train_envs_(train_envs),
      threads_(threads),
      device_(device),
      prev_action_(static_cast<std::size_t>(num_slots), -1.f),
      workers_(batcher) {
  QNet probe = make_model_();
  if (probe->has_core()) core_.enable(probe->initial_state(num_slots, device_));
  synchronize_current_stream(device_);  // the inference threads read the table on streams of their own
}

QInferenceServer::~QInferenceServer() { stop(); }

void QInferenceServer::start() {
  workers_.start(threads_, [this](int) { run(); });
}

void QInferenceServer::stop() { workers_.stop(); }

void QInferenceServer::run() {
  c10::InferenceMode inference_mode;
  // A stream of its own: on a GPU shared with the learner, batches do not
  // queue behind the learner's kernels on the default stream.
  OwnStreamGuard stream(device_, /*high_priority=*/true);
  QNet model = make_model_();
  model->to(device_);
  model->eval();
  std::int64_t version = publisher_.sync(*model, -1);
  const bool core = model->has_core();
  const int H = core ? model->core_size() : 0;
  CudaGraphs graphs(device_, cuda_graphs_);
  const CudaGraphs::Fn forward = [&model](const std::vector<torch::Tensor>& in) {
    QOutput o = model->forward(in[0], in[1], in[2], in[3], CoreState{in[4], in[5]});
    return std::vector<torch::Tensor>{o.q, o.state.h, o.state.c};
  };
  // Per-thread input rows, allocated once.
  const int cap = batcher_.batch_size();
  auto prev_a_host = torch::empty({cap}, torch::kFloat32);
  auto prev_r_host = torch::empty({cap}, torch::kFloat32);
  torch::Tensor record_host;
  float* prev_a = prev_a_host.data_ptr<float>();
  float* prev_r = prev_r_host.data_ptr<float>();
  while (InferenceBatch* batch = batcher_.next_batch()) {
    const auto t0 = std::chrono::steady_clock::now();
    version = publisher_.sync(*model, version);
    const int n = batch->size;
    for (int i = 0; i < n; ++i) {
      const EnvStep& step = *batch->steps[i];
      const bool first = step.flags & kFirst;
      prev_a[i] = first ? -1.f : prev_action_[step.slot];
      prev_r[i] = first ? 0.f : step.reward;
    }
    const bool nb = device_.is_cuda();
    auto obs = batch->obs.narrow(0, 0, n).to(device_, nb).unsqueeze(0);
    auto first = batch->first.narrow(0, 0, n).to(device_, nb);
    auto slots_host = batch->slots.narrow(0, 0, n);
    auto pa = prev_a_host.narrow(0, 0, n).to(device_, nb).unsqueeze(0);
    auto pr = prev_r_host.narrow(0, 0, n).to(device_, nb).unsqueeze(0);
    const torch::Tensor slots = core ? slots_host.to(device_, nb) : torch::Tensor();
    const CoreState state = core_.gather(slots, first);
    const auto out = graphs.run(n, {obs, first.unsqueeze(0), pa, pr, state.h, state.c}, forward);
    const torch::Tensor q = out[0];
    auto actions = selector_->select(q[0], slots_host);
    const CoreState pre = core_.step(slots, state, CoreState{out[1], out[2]});  // host copy of `state`
    const auto t1 = std::chrono::steady_clock::now();
    stats_.forward_ns.fetch_add(ns_since(t0), std::memory_order_relaxed);

    const float* a = actions.data_ptr<float>();
    // [previous action, Q-values] per row: what the store records as "policy"
    // (rows allocated once, at the first batch, when the action count is known).
    if (!record_host.defined()) record_host = torch::empty({cap, 1 + q.size(-1)}, torch::kFloat32);
    auto record = record_host.narrow(0, 0, n);
    record.select(1, 0).copy_(prev_a_host.narrow(0, 0, n));
    record.narrow(1, 1, q.size(-1)).copy_(q[0]);
    const float* rec_policy = record_host.data_ptr<float>();
    const int P = static_cast<int>(record_host.size(1));
    const auto* obs_rows = static_cast<const std::uint8_t*>(batch->obs.data_ptr());
    bool open = true;
    for (int i = 0; i < n; ++i) {
      const EnvStep& step = *batch->steps[i];
      step.action[0] = a[i];
      prev_action_[step.slot] = a[i];
      if (!open || step.slot >= train_envs_) continue;  // evaluation envs are not recorded
      StepRecord rec;
      rec.obs = obs_rows + i * batch->row_bytes;
      rec.action = a + i;
      rec.policy = rec_policy + i * P;
      if (core) {
        rec.core_h = pre.h.data_ptr<float>() + i * H;
        rec.core_c = pre.c.data_ptr<float>() + i * H;
      }
      rec.reward = step.reward;
      rec.flags = step.flags;
      open = store_.append(step.slot, rec, version);  // false: shutting down
    }
    stats_.record_ns.fetch_add(ns_since(t1), std::memory_order_relaxed);
    stats_.batches.fetch_add(1, std::memory_order_relaxed);
    if (graphs.replayed_last()) stats_.graph_batches.fetch_add(1, std::memory_order_relaxed);
    stats_.rows.fetch_add(n, std::memory_order_relaxed);
    batcher_.complete(batch);
  }
}

}  // namespace seedrl::r2d2
