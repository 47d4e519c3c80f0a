#include "seedrl/inference/inference_server.h"

#include <chrono>

#include <torch/torch.h>

#include "seedrl/util/cuda_graphs.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/device_stream.h"

namespace seedrl {

InferenceServer::InferenceServer(RequestBatcher& batcher, TrajectoryStore* store, ParamPublisher& publisher,
                                 ModelFactory make_model, const ActionSpec& action, int num_slots,
                                 int threads, torch::Device device)
    : batcher_(batcher),
      store_(store),
      publisher_(publisher),
      make_model_(std::move(make_model)),
      dist_(make_policy_distribution(action)),
      action_width_(action.width()),
      threads_(threads),
      device_(device),
      workers_(batcher) {
  AgentNet probe = make_model_();
  if (probe->has_core()) core_.enable(probe->initial_state(num_slots, device_));
  synchronize_current_stream(device_);  // the inference threads read the table on streams of their own
}

InferenceServer::~InferenceServer() { stop(); }

void InferenceServer::start() {
  workers_.start(threads_, [this](int) { run(); });
}

void InferenceServer::stop() { workers_.stop(); }

void InferenceServer::reset_slot(int slot) { core_.reset(slot); }

void InferenceServer::run() {
  c10::InferenceMode inference_mode;
  // A stream of its own: on a GPU shared with the learner, batches do not
  // queue behind the learner's kernels on the default stream.
  OwnStreamGuard stream(device_, /*high_priority=*/true);
  AgentNet model = make_model_();
  model->to(device_);
  model->eval();
  std::int64_t version = publisher_.sync(*model, -1);
  const bool core = model->has_core();
  CudaGraphs graphs(device_, cuda_graphs_);
  const CudaGraphs::Fn forward = [&model](const std::vector<torch::Tensor>& in) {
    NetOutput o = model->forward(in[0], in[1], CoreState{in[2], in[3]});
    return std::vector<torch::Tensor>{o.policy, o.state.h, o.state.c};
  };
  while (InferenceBatch* batch = batcher_.next_batch()) {
    const auto t0 = std::chrono::steady_clock::now();
    version = publisher_.sync(*model, version);
    const int n = batch->size;
    const bool non_blocking = device_.is_cuda();
    auto obs = batch->obs.narrow(0, 0, n).to(device_, non_blocking).unsqueeze(0);
    auto first = batch->first.narrow(0, 0, n).to(device_, non_blocking);
    auto slots_host = batch->slots.narrow(0, 0, n);
    const torch::Tensor slots = core ? slots_host.to(device_, non_blocking) : torch::Tensor();
    const CoreState state = core_.gather(slots, first);
    const auto out = graphs.run(n, {obs, first.unsqueeze(0), state.h, state.c}, forward);
    auto policy = out[0][0];
    auto actions = selector_ ? selector_->select(policy, slots_host)
                             : dist_->sample(policy).to(torch::kCPU).contiguous();
    auto policy_cpu = policy.to(torch::kCPU).contiguous();
    const CoreState pre = core_.step(slots, state, CoreState{out[1], out[2]});  // host copy of `state`
    const auto t1 = std::chrono::steady_clock::now();
    stats_.forward_ns.fetch_add(ns_since(t0), std::memory_order_relaxed);

    const float* a = actions.data_ptr<float>();
    const float* p = policy_cpu.data_ptr<float>();
    const int P = static_cast<int>(policy_cpu.size(1));
    const int H = core ? model->core_size() : 0;
    const auto* obs_rows = static_cast<const std::uint8_t*>(batch->obs.data_ptr());
    for (int i = 0; i < n; ++i) {
      const EnvStep& step = *batch->steps[i];
      std::copy_n(a + i * action_width_, action_width_, step.action);
      if (store_) {
        StepRecord rec;
        rec.obs = obs_rows + i * batch->row_bytes;
        rec.action = a + i * action_width_;
        rec.policy = p + i * P;
        if (core) {
          rec.core_h = pre.h.data_ptr<float>() + i * H;
          rec.core_c = pre.c.data_ptr<float>() + i * H;
        }
        rec.reward = step.reward;
        rec.flags = step.flags;
        if (!store_->append(step.slot, rec, version)) break;  // shutting down
      }
    }
    stats_.record_ns.fetch_add(ns_since(t1), std::memory_order_relaxed);
    stats_.batches.fetch_add(1, std::memory_order_relaxed);
    if (graphs.replayed_last()) stats_.graph_batches.fetch_add(1, std::memory_order_relaxed);
    stats_.rows.fetch_add(n, std::memory_order_relaxed);
    batcher_.complete(batch);
  }
}

}  // namespace seedrl
