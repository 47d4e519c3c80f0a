#include "seedrl/inference/inference_server.h"

#include <chrono>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

namespace seedrl {

namespace {
std::uint64_t ns_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

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
      device_(device) {
  AgentNet probe = make_model_();
  if (probe->has_core()) {
    auto st = probe->initial_state(num_slots, device_);
    core_h_ = st.h;
    core_c_ = st.c;
  }
}

InferenceServer::~InferenceServer() { stop(); }

void InferenceServer::start() {
  for (int i = 0; i < threads_; ++i) workers_.emplace_back([this, i] { run(i); });
}

void InferenceServer::stop() {
  batcher_.close();
  for (auto& w : workers_) w.join();
  workers_.clear();
}

void InferenceServer::reset_slot(int slot) {
  if (!core_h_.defined()) return;
  std::lock_guard lock(core_mu_);
  core_h_[slot].zero_();
  core_c_[slot].zero_();
}

void InferenceServer::run(int thread_index) {
  try {
    c10::InferenceMode inference_mode;
    AgentNet model = make_model_();
    model->to(device_);
    model->eval();
    std::int64_t version = publisher_.sync(*model, -1);
    const bool core = model->has_core();
    while (InferenceBatch* batch = batcher_.next_batch()) {
      const auto t0 = std::chrono::steady_clock::now();
      version = publisher_.sync(*model, version);
      const int n = batch->size;
      const bool non_blocking = device_.is_cuda();
      auto obs = batch->obs.narrow(0, 0, n).to(device_, non_blocking).unsqueeze(0);
      auto first = batch->first.narrow(0, 0, n).to(device_, non_blocking);
      auto slots_host = batch->slots.narrow(0, 0, n);
      CoreState state;
      torch::Tensor slots;
      if (core) {
        slots = slots_host.to(device_, non_blocking);
        auto keep = (1 - first.to(torch::kFloat32)).unsqueeze(1);
        std::lock_guard lock(core_mu_);
        state = {core_h_.index_select(0, slots) * keep, core_c_.index_select(0, slots) * keep};
      }
      NetOutput out = model->forward(obs, first.unsqueeze(0), state);
      auto policy = out.policy[0];
      auto actions = selector_ ? selector_->select(policy, slots_host)
                               : dist_->sample(policy).to(torch::kCPU).contiguous();
      auto policy_cpu = policy.to(torch::kCPU).contiguous();
      torch::Tensor h_pre, c_pre;
      if (core) {
        {
          std::lock_guard lock(core_mu_);
          core_h_.index_copy_(0, slots, out.state.h);
          core_c_.index_copy_(0, slots, out.state.c);
        }
        h_pre = state.h.to(torch::kCPU).contiguous();
        c_pre = state.c.to(torch::kCPU).contiguous();
      }
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
            rec.core_h = h_pre.data_ptr<float>() + i * H;
            rec.core_c = c_pre.data_ptr<float>() + i * H;
          }
          rec.reward = step.reward;
          rec.flags = step.flags;
          if (!store_->append(step.slot, rec, version)) break;  // shutting down
        }
      }
      stats_.record_ns.fetch_add(ns_since(t1), std::memory_order_relaxed);
      stats_.batches.fetch_add(1, std::memory_order_relaxed);
      stats_.rows.fetch_add(n, std::memory_order_relaxed);
      batcher_.complete(batch);
    }
  } catch (const std::exception& e) {
    spdlog::error("inference thread {} failed: {}", thread_index, e.what());
    batcher_.close();
  }
}

}  // namespace seedrl
