#include "seedrl/learner/data_parallel.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include <c10/core/DeviceGuard.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/learner/batch_shards.h"
#include "seedrl/trajectory/batch_prefetcher.h"
#include "seedrl/learner/gradient_buckets.h"
#include "seedrl/learner/replica_sync.h"
#include "seedrl/learner/replica_group.h"
#include "seedrl/util/cuda_graphs.h"
#include "seedrl/util/device_stream.h"

namespace seedrl {

namespace {
// One graph of the update: a learner's batch shape never changes. Captured
// after three eager passes, which warm up cuBLAS and cuDNN and create the
// optimizer's state (nothing may allocate outside the graph's pool meanwhile).
std::unique_ptr<CudaGraphs> update_graphs(torch::Device device) {
  return std::make_unique<CudaGraphs>(device, true, /*capture_after=*/3, /*max_graphs=*/1);
}
}  // namespace

struct DataParallelLearner::Replica {
  Replica(torch::Device d, AgentNet m, std::unique_ptr<PolicyDistribution> p)
      : device(d), model(std::move(m)), dist(std::move(p)) {}
  torch::Device device;
  AgentNet model;
  std::unique_ptr<PolicyDistribution> dist;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::unique_ptr<GradientBuckets> buckets;  // declared after model: its hooks go first
  // On a GPU: clip and step without waiting for the device.
  std::unique_ptr<DeviceOptimizerStep> device_step;
  // --cuda-graphs: the update replayed as a CUDA graph, on a stream of the
  // replica's own (CUDA cannot capture the default stream).
  std::unique_ptr<CudaGraphs> graphs;
  std::optional<c10::Stream> stream;
  VTraceLosses losses;
  torch::Tensor grad_norm;
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
    auto rep = std::make_unique<Replica>(devices[r], make_model(), make_policy_distribution(action));
    rep->model->to(rep->device);
    rep->model->train();
    rep->optimizer = make_optimizer(config_.optimizer, rep->model->parameters());
    if (group_) rep->buckets = std::make_unique<GradientBuckets>(*group_, r, rep->model->parameters(), options_.bucket_bytes);
    if (options_.use_device_step(rep->device.is_cuda()))
      rep->device_step = std::make_unique<DeviceOptimizerStep>(*rep->optimizer, config_.optimizer, rep->model->parameters());
    replicas_.push_back(std::move(rep));
  }
  if (options_.cuda_graphs && n == 1 && devices.front().is_cuda()) {
    Replica& rep = *replicas_.front();
    const char* eager_because = !CudaGraphs::supported()    ? "this build has no CUDA graphs"
                                : rep.model->normalizes_obs() ? "--normalize-obs updates its moments outside the graph"
                                : !rep.device_step            ? "its optimizer step runs on the host"
                                                              : nullptr;
    if (eager_because) {
      spdlog::info("--cuda-graphs: the learner's update runs eagerly ({})", eager_because);
    } else {
      rep.stream = c10::impl::VirtualGuardImpl(rep.device.type()).getStreamFromGlobalPool(rep.device, false);
      rep.graphs = update_graphs(rep.device);
    }
  } else if (options_.cuda_graphs && n > 1) {
    spdlog::info("--cuda-graphs: the {} learner replicas update eagerly (their all-reduce sits inside the update)", n);
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
bool DataParallelLearner::update_replayed() const {
  const auto& graphs = replicas_.front()->graphs;
  return graphs && graphs->replayed_last();
}

void DataParallelLearner::publish() { publisher_.publish(*replicas_.front()->model, steps_); }

void DataParallelLearner::replica_update(int rank) {
  Replica& r = *replicas_[rank];
  c10::DeviceGuard guard(r.device);
  if (r.graphs) {
    c10::StreamGuard stream(*r.stream);
    r.grad_norm = graphed_update(r, job_.shards[rank]);
    // The caller reads the losses and publishes the weights on its own stream.
    synchronize_current_stream(r.device);
    return;
  }
  GradientReduction reduce;
  if (r.buckets) {
    reduce.before_backward = [&r] { r.buckets->prepare(); };
    reduce.after_backward = [&r] { r.buckets->finish(); };
  }
  r.grad_norm = vtrace_update(r.model, *r.dist, *r.optimizer, job_.shards[rank], config_, r.device, job_.lr,
                              r.losses, job_.normalizer, reduce, r.device_step.get());
  if (job_.checksum) check_replicas_identical(*group_, rank, *r.model, devices_, job_.step);
}

torch::Tensor DataParallelLearner::graphed_update(Replica& r, const UnrollBatch& shard) {
  for (auto& group : r.optimizer->param_groups()) group.options().set_lr(job_.lr);  // as checkpoints record it
  // On the device first: a graph is captured on device tensors, and each
  // replay copies the next batch into them.
  const std::vector<torch::Tensor> in{shard.obs.to(r.device, true),     shard.actions.to(r.device, true),
                                      shard.policy.to(r.device, true),  shard.rewards.to(r.device, true),
                                      shard.flags.to(r.device, true),
                                      shard.core_h.defined() ? shard.core_h.to(r.device, true) : torch::Tensor(),
                                      shard.core_c.defined() ? shard.core_c.to(r.device, true) : torch::Tensor()};
  const CudaGraphs::Fn pass = [this, &r](const std::vector<torch::Tensor>& t) {
    UnrollBatch b;
    b.obs = t[0];
    b.actions = t[1];
    b.policy = t[2];
    b.rewards = t[3];
    b.flags = t[4];
    b.core_h = t[5];
    b.core_c = t[6];
    VTraceLosses l;
    // One replica: the loss normalises by its own batch (job_.normalizer is
    // 0), so no number that changes per batch is baked into the graph.
    auto norm = vtrace_pass(r.model, *r.dist, *r.optimizer, b, config_, r.device, l, /*normalizer=*/0, {},
                            r.device_step.get());
    return std::vector<torch::Tensor>{l.total, l.pg, l.baseline, l.entropy, l.mean_rho, norm};
  };
  std::vector<torch::Tensor> out;
  for (int epoch = 0; epoch < std::max(1, config_.epochs); ++epoch) {
    if (r.device_step->prepare(job_.lr) && r.graphs->captured() > 0) {
      // New weights or optimizer state (a checkpoint was loaded): the graph
      // would go on updating the old tensors.
      spdlog::info("--cuda-graphs: the learner's weights or optimizer state were replaced; capturing its update again");
      r.graphs = update_graphs(r.device);
    }
    out = r.graphs->run(static_cast<int>(shard.obs.size(1)), in, pass);
  }
  r.losses = {out[0], out[1], out[2], out[3], out[4]};
  return out[5];
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
    // Each replica's losses are its share of the batch's: they add up. One
    // copy to the host per replica, not one wait for the device per number.
    const VTraceLosses& l = r->losses;
    auto host = torch::stack({l.total, l.pg, l.baseline, l.entropy, l.mean_rho, r->grad_norm.to(l.total.options())})
                    .to(torch::kCPU, torch::kFloat64);
    const double* v = host.data_ptr<double>();
    s.total_loss += v[0];
    s.pg_loss += v[1];
    s.baseline_loss += v[2];
    s.entropy += v[3];
    s.mean_rho += v[4];
    if (r == replicas_.front()) s.grad_norm = v[5];
  }
  s.learning_rate = job_.lr;
  s.policy_lag = static_cast<double>(steps_ - 1) - batch.versions.to(torch::kFloat64).mean().item<double>();
  stats = s;
}

}  // namespace seedrl
