// Central inference over several devices (--inference-devices cuda:0,cuda:1,
// or cpu,cpu): one RequestBatcher and one InferenceServer per device (with
// V-trace's ActorCriticStep, or R2D2's QValueStep). Each
// device holds its own copy of the weights; its inference threads refresh it
// from the one ParamPublisher between batches, so every learner update
// reaches every device. Local actor a submits to device a % N, so an env's
// slot always meets the same recurrent-state table. A remote connection is
// given one device for its whole session (the least loaded one, see
// RemoteActorServer), so every device indexes every remote slot. A second
// local pool (R2D2's evaluation envs, one per thread) is spread the same way.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <torch/types.h>

#include "seedrl/inference/actor_critic_step.h"
#include "seedrl/inference/inference_server.h"
#include "seedrl/inference/request_batcher.h"

namespace seedrl {

struct InferenceFleetConfig {
  ArraySpec observation;
  int batch_size = 1;
  std::chrono::microseconds timeout{1000};
  int threads_per_device = 1;
  bool batch_auto = false;  // seal at half of each device's live envs (RequestBatcher::track_live_envs)
  int local_actors = 0;     // actor threads of this process, spread a % N
  int envs_per_actor = 1;
  int remote_envs = 0;       // slots after the local ones, each connection served by one device
  int eval_envs = 0;         // slots after the remote ones: actor threads of one env each, spread e % N
  bool cuda_graphs = false;  // inference forwards replayed as CUDA graphs (util/cuda_graphs.h)
  bool answer_first = true;  // actors answered before their steps are recorded (DeviceInference::answer_first)
  // Slots every device's server must index.
  int num_slots() const { return local_actors * envs_per_actor + remote_envs + eval_envs; }
};

// Counters of the inference side, summed over threads (and devices).
struct InferenceTotals {
  std::uint64_t batches = 0, rows = 0, forward_ns = 0, record_ns = 0;  // InferenceServer
  std::uint64_t graph_batches = 0;                                     // of them CUDA graph replays
  std::uint64_t sealed = 0, timeouts = 0, fill_ns = 0, idle_ns = 0;    // RequestBatcher
  InferenceTotals& operator+=(const InferenceTotals& o);
};

class InferenceFleet {
 public:
  using ServerFactory = std::function<std::unique_ptr<DeviceInference>(RequestBatcher& batcher, torch::Device device)>;
  InferenceFleet(const std::vector<torch::Device>& devices, const InferenceFleetConfig& config,
                 const ServerFactory& make_server);
  // V-trace's: an InferenceServer with an ActorCriticStep per device.
  InferenceFleet(const std::vector<torch::Device>& devices, const InferenceFleetConfig& config, TrajectoryStore* store,
                 ParamPublisher& publisher, ActorCriticStep::ModelFactory make_model, const ActionSpec& action);
  ~InferenceFleet();
  InferenceFleet(const InferenceFleet&) = delete;
  InferenceFleet& operator=(const InferenceFleet&) = delete;

  int size() const { return static_cast<int>(devices_.size()); }
  // Local actor a's batcher is batchers()[a % size()] (what ActorPool does).
  const std::vector<RequestBatcher*>& batchers() const { return batcher_ptrs_; }
  // Local environments a device serves, evaluation ones included (remote ones excluded).
  int local_envs(int device) const;

  void start();
  // Closes every batcher and joins every inference thread.
  void stop();
  // Zeroes a remote slot's recurrent state on every device (its actor went
  // away; the slot's next user may be served by another device).
  void reset_slot(int slot) {
    for (auto& s : servers_) s->reset_slot(slot);
  }
  // Until every answered step of the slot is recorded, on every device.
  void settle_slot(int slot) {
    for (auto& s : servers_) s->settle_slot(slot);
  }

  InferenceTotals totals() const;
  InferenceTotals totals(int device) const;
  // An inference thread on some device failed.
  bool failed() const {
    for (const auto& s : servers_)
      if (s->failed()) return true;
    return false;
  }

 private:
  std::vector<torch::Device> devices_;
  InferenceFleetConfig config_;
  std::vector<std::unique_ptr<RequestBatcher>> batchers_;
  std::vector<RequestBatcher*> batcher_ptrs_;
  std::vector<std::unique_ptr<DeviceInference>> servers_;  // after batchers_: destroyed (joined) first
};

}  // namespace seedrl
