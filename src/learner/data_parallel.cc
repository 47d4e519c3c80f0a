#include "seedrl/learner/data_parallel.h"

#include <algorithm>
#include <stdexcept>

#include <c10/core/DeviceGuard.h>
#include <torch/torch.h>

#include "seedrl/learner/batch_shards.h"
#include "seedrl/trajectory/batch_prefetcher.h"
#include "seedrl/learner/gradient_buckets.h"
#include "seedrl/learner/replica_sync.h"
#include "seedrl/learner/replica_group.h"

namespace seedrl {

struct DataParallelLearner::Replica {
  torch::Device device;
  AgentNet model;
  std::unique_ptr<PolicyDistribution> dist;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::unique_ptr<GradientBuckets> buckets;  // declared after model: its hooks go first
  VTraceLosses losses;
  double grad_norm = 0;
};

DataParallelLearner::DataParallelLearner(const ModelFactory& make_model, const ActionSpec& action,
                                         const LearnerConfig& config, TrajectoryStore& store,
                                         ParamPublisher& publisher, std::vector<torch::Device> devices,
                                         DataParallelOptions options)
    : config_(config), store_(store), publisher_(publisher), options_(options), devices_(devices) {
  const int n = static_cast<int>(devices.size());
  check_batch_splits(config_.batch_size, n, "unrolls");
  const bool any_cuda = std::any_of(devices.begin(), devices.end(), [](const torch::Device& d) { return d.is_cuda(); });
  // Learner batches in page-locked memory, so that copying them to the GPUs is asynchronous.
  if (any_cuda) store_.pin_batches(true);
  prefetch_ = options_.prefetch == DataParallelOptions::Prefetch::kAlways ||
              (options_.prefetch == DataParallelOptions::Prefetch::kAuto && any_cuda);
  if (n > 1) group_ = std::make_unique<ReplicaGroup>(devices, options_.timeout);
  for (int r = 0; r < n; ++r) {
    auto rep = std::make_unique<Replica>(Replica{devices[r], make_model(), make_policy_distribution(action), nullptr,
                                                 nullptr, {}, 0});
    rep->model->to(rep->device);
    rep->model->train();
    rep->optimizer = make_optimizer(config_.optimizer, rep->model->parameters());
    if (group_) rep->buckets = std::make_unique<GradientBuckets>(*group_, r, rep->model->parameters(), options_.bucket_bytes);
    replicas_.push_back(std::move(rep));
  }
  threads_ = std::make_unique<ReplicaThreads>(n, options_.learner_cpus);
  if (group_) {
    // Every replica starts from replica 0's weights.
    threads_->run([this](int rank) { broadcast_module(*group_, rank, *replicas_[rank]->model); });
  }
}

DataParallelLearner::~DataParallelLearner() = default;

AgentNet& DataParallelLearner::model() { return replicas_.front()->model; }
torch::optim::Optimizer& DataParallelLearner::optimizer() { return *replicas_.front()->optimizer; }
AgentNet& DataParallelLearner::replica_model(int rank) { return replicas_.at(rank)->model; }

void DataParallelLearner::publish() { publisher_.publish(*replicas_.front()->model, steps_); }

void DataParallelLearner::replica_update(int rank) {
  Replica& r = *replicas_[rank];
  c10::DeviceGuard guard(r.device);
  GradientReduction reduce;
  if (r.buckets) {
    reduce.before_backward = [&r] { r.buckets->prepare(); };
    reduce.after_backward = [&r] { r.buckets->finish(); };
  }
  r.grad_norm = vtrace_update(r.model, *r.dist, *r.optimizer, job_.shards[rank], config_, r.device, job_.lr,
                              r.losses, job_.normalizer, reduce);
  if (job_.checksum) check_replicas_identical(*group_, rank, *r.model, devices_, job_.step);
}

void DataParallelLearner::verify_replicas() {
  if (!group_) return;
  threads_->run([this](int rank) { check_replicas_identical(*group_, rank, *replicas_[rank]->model, devices_, steps_); });
}

void DataParallelLearner::sync_replicas() {
  if (!group_) return;
  for (int r = 1; r < replicas(); ++r)
    copy_optimizer_state(*replicas_.front()->optimizer, *replicas_[r]->optimizer, replicas_[r]->device);
  threads_->run([this](int rank) { broadcast_module(*group_, rank, *replicas_[rank]->model); });
  verify_replicas();
}

bool DataParallelLearner::step(LearnerStats& stats) {
  if (prefetch_) {
    if (!prefetcher_) prefetcher_ = std::make_unique<BatchPrefetcher>(store_, config_.batch_size);
    if (!prefetcher_->next(batch_)) return false;
  } else if (!store_.next_batch(config_.batch_size, batch_)) {
    return false;
  }
  update(batch_, stats);
  return true;
}

std::uint64_t DataParallelLearner::batch_wait_ns() const {
  return prefetcher_ ? prefetcher_->wait_ns() : store_.learner_wait_ns();
}

void DataParallelLearner::update(const UnrollBatch& batch, LearnerStats& stats) {
  const std::int64_t T = batch.obs.size(0) - 1;
  const std::int64_t B = batch.obs.size(1);
  const int n = replicas();
  if (B < n)
    throw std::invalid_argument("--batch-size: a batch of " + std::to_string(B) + " unrolls cannot feed " +
                                std::to_string(n) + " learner replicas");
  job_.lr = decayed_learning_rate(config_, frames_);
  // One replica: its own count (the plain VTraceLearner update). Several:
  // the whole batch's count, so the summed gradient is the batch's gradient.
  job_.normalizer = n == 1 ? 0.0 : std::max(1.0, valid_transitions(batch));
  job_.step = steps_ + 1;
  job_.checksum = group_ && options_.checksum_every > 0 && job_.step % options_.checksum_every == 0;
  job_.shards.resize(n);
  for (int r = 0; r < n; ++r) {
    job_.shards[r] = n == 1 ? batch : shard_of(batch, shard_range(B, r, n));
  }
  threads_->run([this](int rank) { replica_update(rank); });
  ++steps_;
  frames_ += T * B;
  publish();

  LearnerStats s;
  for (auto& r : replicas_) {
    // Each replica's losses are its share of the batch's: they add up.
    s.total_loss += r->losses.total.item<double>();
    s.pg_loss += r->losses.pg.item<double>();
    s.baseline_loss += r->losses.baseline.item<double>();
    s.entropy += r->losses.entropy.item<double>();
    s.mean_rho += r->losses.mean_rho.item<double>();
  }
  s.grad_norm = replicas_.front()->grad_norm;
  s.learning_rate = job_.lr;
  s.policy_lag = static_cast<double>(steps_ - 1) - batch.versions.to(torch::kFloat64).mean().item<double>();
  stats = s;
}

}  // namespace seedrl
