#include "seedrl/learner/replica_set.h"

#include <stdexcept>

#include <c10/core/DeviceGuard.h>
#include <torch/torch.h>

#include "seedrl/learner/device_optimizer_step.h"
#include "seedrl/learner/gradient_buckets.h"
#include "seedrl/learner/replica_group.h"
#include "seedrl/learner/replica_sync.h"
#include "seedrl/learner/replica_threads.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/util/clock.h"

namespace seedrl {

struct ReplicaSetBase::Impl {
  struct Replica {
    std::vector<std::shared_ptr<torch::nn::Module>> nets;
    std::vector<torch::Tensor> params;  // net 0's, what the optimizer steps
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    std::unique_ptr<GradientBuckets> buckets;  // after the nets: its hooks go first
    std::unique_ptr<DeviceOptimizerStep> device_step;
  };
  // Declaration order is destruction order reversed: the threads stop before
  // the replicas go, the replicas' buckets before the group they talk through.
  std::unique_ptr<ReplicaGroup> group;
  std::vector<Replica> replicas;
  std::unique_ptr<ReplicaThreads> threads;
};

ReplicaSetBase::ReplicaSetBase(std::vector<torch::Device> devices, const std::vector<Nets>& nets,
                               const OptimizerConfig& optimizer, const DataParallelOptions& options)
    : devices_(std::move(devices)), options_(options), impl_(std::make_unique<Impl>()) {
  const int n = size();
  if (n < 1) throw std::invalid_argument("--learner-devices: no learner device");
  if (static_cast<int>(nets.size()) != n) throw std::invalid_argument("ReplicaSet: one set of nets per device");
  if (options_.rendezvous)
    impl_->group = std::make_unique<ReplicaGroup>(devices_, options_.timeout, *options_.rendezvous);
  else if (n > 1)
    impl_->group = std::make_unique<ReplicaGroup>(devices_, options_.timeout);
  impl_->replicas.resize(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    Impl::Replica& rep = impl_->replicas[r];
    rep.nets = nets[r];
    if (rep.nets.empty()) throw std::invalid_argument("ReplicaSet: a replica without a net");
    rep.nets.front()->train();
    for (std::size_t k = 1; k < rep.nets.size(); ++k) {
      rep.nets[k]->eval();
      for (auto& p : rep.nets[k]->parameters()) p.set_requires_grad(false);
    }
    rep.params = rep.nets.front()->parameters();
    rep.optimizer = make_optimizer(optimizer, rep.params);
    if (impl_->group)
      rep.buckets = std::make_unique<GradientBuckets>(*impl_->group, r, rep.params, options_.bucket_bytes);
    if (options_.use_device_step(devices_[r].is_cuda(), optimizer.name == "adam"))
      rep.device_step = std::make_unique<DeviceOptimizerStep>(*rep.optimizer, optimizer, rep.params);
  }
  impl_->threads = std::make_unique<ReplicaThreads>(n, options_.learner_cpus);
  if (impl_->group) {
    // Every replica starts from replica 0's weights.
    run([this](int rank) {
      for (auto& net : impl_->replicas[rank].nets) broadcast_module(*impl_->group, rank, *net);
    });
  }
}

ReplicaSetBase::~ReplicaSetBase() = default;

bool ReplicaSetBase::grouped() const { return impl_->group != nullptr; }

int ReplicaSetBase::world_size() const { return impl_->group ? impl_->group->world_size() : size(); }

std::string ReplicaSetBase::gone_ranks() const { return impl_->group ? impl_->group->gone_ranks() : std::string(); }

void ReplicaSetBase::allreduce_sum(int rank, torch::Tensor tensor) {
  if (impl_->group) impl_->group->allreduce_sum(rank, std::move(tensor))();
}

torch::optim::Optimizer& ReplicaSetBase::optimizer(int rank) { return *impl_->replicas.at(rank).optimizer; }

DeviceOptimizerStep* ReplicaSetBase::device_step(int rank) { return impl_->replicas.at(rank).device_step.get(); }

void ReplicaSetBase::run(const std::function<void(int rank)>& job) {
  impl_->threads->run([this, &job](int rank) {
    c10::DeviceGuard guard(devices_[rank]);
    job(rank);
  });
}

void ReplicaSetBase::run_update(std::int64_t step, const std::function<void(int rank)>& job) {
  struct Update {
    ReplicaSetBase* set;
    const std::function<void(int)>* job;
    std::int64_t step;
    bool checksum;
  } u{this, &job, step, grouped() && options_.checksum_every > 0 && step % options_.checksum_every == 0};
  // One pointer: the job's std::function stores it without allocating.
  run([p = &u](int rank) {
    (*p->job)(rank);
    if (p->checksum) p->set->check_identical(rank, p->step);
  });
}

void ReplicaSetBase::prepare_gradients(int rank) {
  if (auto& b = impl_->replicas[rank].buckets) b->prepare();
}

void ReplicaSetBase::reduce_gradients(int rank) {
  auto& b = impl_->replicas[rank].buckets;
  if (!b) return;
  const auto t0 = SteadyClock::now();
  b->finish();
  if (rank == 0) reduce_wait_ns_ += ns_since(t0);
}

torch::Tensor ReplicaSetBase::clip_and_step(int rank, const OptimizerConfig& config, double lr) {
  Impl::Replica& r = impl_->replicas[rank];
  for (auto& group : r.optimizer->param_groups()) group.options().set_lr(lr);  // as checkpoints record it
  if (r.device_step) r.device_step->prepare(lr);
  return seedrl::clip_and_step(*r.optimizer, r.params, config, r.device_step.get());
}

void ReplicaSetBase::check_identical(int rank, std::int64_t step) {
  check_replicas_identical(*impl_->group, rank, *impl_->replicas[rank].nets.front(), devices_, step);
}

void ReplicaSetBase::verify(std::int64_t step) {
  if (!grouped()) return;
  run([this, step](int rank) { check_identical(rank, step); });
}

void ReplicaSetBase::sync_from_first(std::int64_t step) {
  if (!grouped()) return;
  for (int r = 1; r < size(); ++r)
    copy_optimizer_state(*impl_->replicas.front().optimizer, *impl_->replicas[r].optimizer, devices_[r]);
  run([this](int rank) {
    for (auto& net : impl_->replicas[rank].nets) broadcast_module(*impl_->group, rank, *net);
  });
  verify(step);
}

}  // namespace seedrl
