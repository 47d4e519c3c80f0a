#include "seedrl/inference/inference_server.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <torch/torch.h>

#include "seedrl/util/clock.h"
#include "seedrl/util/cuda_graphs.h"
#include "seedrl/util/device_stream.h"

namespace seedrl {

InferenceServer::InferenceServer(RequestBatcher& batcher, TrajectoryStore* store, ParamPublisher& publisher,
                                 std::unique_ptr<PolicyStep> step, int num_slots, int threads, torch::Device device)
    : batcher_(batcher),
      store_(store),
      publisher_(publisher),
      step_(std::move(step)),
      threads_(threads),
      device_(device),
      turns_(num_slots),
      workers_(batcher) {
  CoreState initial = step_->initial_state(num_slots, device_);
  if (initial.defined()) core_.enable(std::move(initial));
  synchronize_current_stream(device_);  // the inference threads read the table on streams of their own
}

InferenceServer::~InferenceServer() { stop(); }

void InferenceServer::start() {
  workers_.start(threads_, [this](int) { run(); });
}

void InferenceServer::stop() { workers_.stop(); }

void InferenceServer::run() {
  c10::InferenceMode inference_mode;
  // A stream of its own: on a GPU shared with the learner, batches do not
  // queue behind the learner's kernels on the default stream.
  OwnStreamGuard stream(device_, /*high_priority=*/true);
  const PolicyModel model = step_->make_model(device_);
  std::int64_t version = publisher_.sync(*model.module, -1);
  const bool core = core_.enabled();
  CudaGraphs graphs(device_, cuda_graphs_);

  // Per-thread buffers, allocated once: the algorithm's extra input rows,
  // the recorded "policy" rows and the forward's input list.
  const int cap = batcher_.batch_size();
  std::vector<torch::Tensor> extra_host(static_cast<std::size_t>(step_->extra_inputs()));
  for (auto& t : extra_host) t = torch::empty({cap}, torch::kFloat32);
  std::vector<torch::Tensor> extra_rows(extra_host.size());
  const torch::Tensor record_host = torch::empty({cap, step_->record_size()}, torch::kFloat32);
  const float* rec_policy = record_host.data_ptr<float>();
  const int R = step_->record_size();
  std::vector<torch::Tensor> inputs;
  inputs.reserve(4 + extra_host.size());
  const bool non_blocking = device_.is_cuda();

  std::vector<PendingRecord> pending_rows(static_cast<std::size_t>(cap));
  bool recording = store_ != nullptr;

  while (InferenceBatch* batch = batcher_.next_batch()) {
    bool answered = false;
    try {
      const auto t0 = std::chrono::steady_clock::now();
      version = publisher_.sync(*model.module, version);
      const int n = batch->size;
      step_->fill_inputs(*batch, extra_host);
      for (std::size_t k = 0; k < extra_host.size(); ++k) extra_rows[k] = extra_host[k].narrow(0, 0, n);
      auto first = batch->first.narrow(0, 0, n).to(device_, non_blocking);
      auto slots_host = batch->slots.narrow(0, 0, n);
      const torch::Tensor slots = core ? slots_host.to(device_, non_blocking) : torch::Tensor();
      const CoreState state = core_.gather(slots, first);
      inputs.clear();
      inputs.push_back(batch->obs.narrow(0, 0, n).to(device_, non_blocking).unsqueeze(0));
      inputs.push_back(first.unsqueeze(0));
      for (const auto& rows : extra_rows) inputs.push_back(rows.to(device_, non_blocking).unsqueeze(0));
      inputs.push_back(state.h);
      inputs.push_back(state.c);
      const auto out = graphs.run(n, inputs, model.forward);
      const torch::Tensor output = out[0][0];
      const torch::Tensor actions = step_->select(output, slots_host);
      step_->record(output, extra_rows, record_host.narrow(0, 0, n));
      const CoreState pre = core_.step(slots, state, CoreState{out[1], out[2]});  // host copy of `state`
      const auto t1 = std::chrono::steady_clock::now();
      stats_.forward_ns.fetch_add(ns_since(t0), std::memory_order_relaxed);

      const float* a = actions.data_ptr<float>();
      const int W = static_cast<int>(actions.size(1));
      const int H = core ? static_cast<int>(pre.h.size(1)) : 0;
      const auto* obs_rows = static_cast<const std::uint8_t*>(batch->obs.data_ptr());
      // Every row gets its action. What the record needs from the actors'
      // EnvSteps is copied out with a ticket per slot, before the answer
      // hands the EnvSteps back to their actors.
      int pending = 0;
      for (int i = 0; i < n; ++i) {
        const EnvStep& step = *batch->steps[i];
        std::copy_n(a + i * W, W, step.action);
        step_->acted(step.slot, a + i * W);
        if (!recording || !step_->records(step.slot)) continue;
        pending_rows[pending++] = PendingRecord{i, step.slot, turns_.take_ticket(step.slot), step.reward, step.flags};
      }
      answered = answer_first_;
      if (answered) batcher_.answer(batch);
      for (int k = 0; k < pending; ++k) {
        const PendingRecord& p = pending_rows[k];
        turns_.wait_turn(p.slot, p.ticket);
        if (recording) {
          StepRecord rec;
          rec.obs = obs_rows + p.row * batch->row_bytes;
          rec.action = a + p.row * W;
          rec.policy = rec_policy + p.row * R;
          if (core) {
            rec.core_h = pre.h.data_ptr<float>() + p.row * H;
            rec.core_c = pre.c.data_ptr<float>() + p.row * H;
          }
          rec.reward = p.reward;
          rec.flags = p.flags;
          recording = store_->append(p.slot, rec, version);  // false: the store closed (shutting down)
        }
        turns_.pass_turn(p.slot);
      }
      stats_.record_ns.fetch_add(ns_since(t1), std::memory_order_relaxed);
      stats_.batches.fetch_add(1, std::memory_order_relaxed);
      if (graphs.replayed_last()) stats_.graph_batches.fetch_add(1, std::memory_order_relaxed);
      stats_.rows.fetch_add(n, std::memory_order_relaxed);
      if (answered)
        batcher_.release(batch);
      else
        batcher_.complete(batch);
    } catch (...) {
      // Steps given tickets will not all be recorded: nothing may wait for
      // their turns (another thread, a remote slot settling).
      turns_.abandon();
      if (answered) {
        batcher_.release(batch);  // its actors have their actions
      } else {
        // Its actors and remote sessions wait on this batch: answer them as
        // closed before the failure stops this thread (InferenceThreads).
        batcher_.abandon(batch);
      }
      throw;
    }
  }
}

}  // namespace seedrl
