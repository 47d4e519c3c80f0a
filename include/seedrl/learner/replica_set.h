// The data-parallel replicas of a learner in this process, one per learner
// device; V-trace's learner (data_parallel.h) and R2D2's (r2d2_learner.h)
// share it and keep only their algorithm (the loss, what a shard is, what
// they report and publish).
//
// A replica is a device and its networks: net 0 is trained (an optimizer over
// its parameters, gradient buckets that all-reduce its gradients, the
// checksum that proves the replicas identical); any further net is a
// companion, kept in eval mode without gradients and copied from replica 0
// with the trained one (R2D2's target network). With several devices the
// replicas form a ReplicaGroup (Gloo on CPU, NCCL on CUDA) and every rank
// but 0 runs on a thread of its own (ReplicaThreads); every replica starts
// from replica 0's weights. With one device there is no group, no thread and
// no collective: a job then is the plain single-learner update.
//
// A learner hands run_update() the job of one rank: its shard's loss, backward
// between prepare_gradients() and reduce_gradients() (after which every
// replica holds the sum of the ranks' gradients), then clip_and_step().
//
// Why a class template over a type-erased base: the learners' jobs run their
// own network types (AgentNet and QNet, whose forward() differ) and their
// public APIs hand those holders out, so the set must keep typed nets. Nothing
// else depends on the type: the group, threads, optimizers, buckets and
// checksums are compiled once (replica_set.cc) over torch::nn::Module, which
// also keeps c10d's and torch/torch.h's headers out of this one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include "seedrl/learner/data_parallel_options.h"
#include "seedrl/learner/learner_config.h"

namespace seedrl {

class DeviceOptimizerStep;

class ReplicaSetBase {
 public:
  virtual ~ReplicaSetBase();  // joins the replica threads, then drops buckets, optimizers and the group
  ReplicaSetBase(const ReplicaSetBase&) = delete;
  ReplicaSetBase& operator=(const ReplicaSetBase&) = delete;

  int size() const { return static_cast<int>(devices_.size()); }
  const std::vector<torch::Device>& devices() const { return devices_; }
  torch::Device device(int rank) const { return devices_.at(rank); }
  // Whether gradients and checksums travel between replicas (several devices,
  // or several learner processes).
  bool grouped() const;
  // Replicas over every learner process (size() without a rendezvous).
  int world_size() const;
  bool spans_processes() const { return options_.rendezvous.has_value(); }
  // Learner processes: the ranks known to have exited (ReplicaGroup::gone_ranks), or "".
  std::string gone_ranks() const;
  // Collective, in a job: in-place sum of `tensor` (on rank's device) over every replica of every process.
  void allreduce_sum(int rank, torch::Tensor tensor);
  torch::optim::Optimizer& optimizer(int rank);
  // The clip and step that never waits for the device (DataParallelOptions::device_step), or null.
  DeviceOptimizerStep* device_step(int rank);

  // Runs job(rank) on every replica at once, each on its own thread under a
  // DeviceGuard of its device, and returns when all are done; rethrows the
  // lowest rank's error (c10d's timeout frees ranks left waiting in a
  // collective). Collectives in the job meet the other ranks' calls.
  void run(const std::function<void(int rank)>& job);
  // run(job) for update number `step`; when the options' checksum_every
  // divides it, every rank then checks the replicas identical in the same run.
  void run_update(std::int64_t step, const std::function<void(int rank)>& job);

  // In a job, around the backward pass of net 0's loss: arm the gradient
  // buckets, then wait for the all-reduce, after which .grad holds the sum
  // over the replicas. No-ops with one replica.
  void prepare_gradients(int rank);
  void reduce_gradients(int rank);
  // Nanoseconds replica 0 has waited in reduce_gradients(): the all-reduce
  // that backward did not hide, and the wait for slower replicas.
  std::uint64_t reduce_wait_ns() const { return reduce_wait_ns_; }
  // In a job, after reduce_gradients(): sets learning rate `lr`, clips the
  // global grad norm and steps rank's optimizer (clip_and_step in
  // device_optimizer_step.h). Returns the norm before clipping on the device.
  torch::Tensor clip_and_step(int rank, const OptimizerConfig& config, double lr);

  // Collective, in a job: throws std::runtime_error naming the first replica
  // whose net 0 differs from replica 0's after `step` updates.
  void check_identical(int rank, std::int64_t step);
  // check_identical on every rank, between updates.
  void verify(std::int64_t step);
  // After a checkpoint was loaded into replica 0: copies its optimizer state
  // and every one of its nets to every other replica, then verify(step).
  void sync_from_first(std::int64_t step);

 protected:
  using Nets = std::vector<std::shared_ptr<torch::nn::Module>>;
  // nets[rank]: replica rank's nets, already on devices[rank], net 0 first.
  ReplicaSetBase(std::vector<torch::Device> devices, const std::vector<Nets>& nets, const OptimizerConfig& optimizer,
                 const DataParallelOptions& options);

 private:
  std::vector<torch::Device> devices_;
  DataParallelOptions options_;
  std::uint64_t reduce_wait_ns_ = 0;  // replica 0's (the caller's thread)
  struct Impl;
  std::unique_ptr<Impl> impl_;  // the group, the replicas' optimizers and buckets, the threads
};

// `Net`: a torch::nn::ModuleHolder (AgentNet, QNet, torch::nn::Sequential).
template <class Net>
class ReplicaSet final : public ReplicaSetBase {
 public:
  using Factory = std::function<Net()>;
  // Per device, `nets_per_replica` nets from `make` (net 0 first, in rank
  // order), moved to the device; every replica then receives replica 0's
  // weights. `optimizer` builds net 0's optimizer (make_optimizer).
  ReplicaSet(const Factory& make, int nets_per_replica, std::vector<torch::Device> devices,
             const OptimizerConfig& optimizer, const DataParallelOptions& options)
      : ReplicaSet(build(make, nets_per_replica, devices), devices, optimizer, options) {}

  Net& net(int rank, int which = 0) { return nets_.at(rank).at(which); }

 private:
  ReplicaSet(std::vector<std::vector<Net>> nets, std::vector<torch::Device> devices, const OptimizerConfig& optimizer,
             const DataParallelOptions& options)
      : ReplicaSetBase(std::move(devices), modules(nets), optimizer, options), nets_(std::move(nets)) {}

  static std::vector<std::vector<Net>> build(const Factory& make, int count,
                                             const std::vector<torch::Device>& devices) {
    std::vector<std::vector<Net>> nets(devices.size());
    for (std::size_t r = 0; r < devices.size(); ++r) {
      for (int k = 0; k < count; ++k) {
        nets[r].push_back(make());
        nets[r].back()->to(devices[r]);
      }
    }
    return nets;
  }
  static std::vector<Nets> modules(const std::vector<std::vector<Net>>& nets) {
    std::vector<Nets> out(nets.size());
    for (std::size_t r = 0; r < nets.size(); ++r)
      for (const Net& n : nets[r]) out[r].push_back(n.ptr());
    return out;
  }

  std::vector<std::vector<Net>> nets_;  // the same modules the base holds
};

}  // namespace seedrl
