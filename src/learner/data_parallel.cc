#include "seedrl/learner/data_parallel.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>

#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/learner/batch_shards.h"
#include "seedrl/learner/replica_sync.h"
#include "seedrl/trajectory/batch_prefetcher.h"
#include "seedrl/util/clock.h"
#include "seedrl/util/cuda_graphs.h"
#include "seedrl/util/device_stream.h"
#include "seedrl/util/error_text.h"

namespace seedrl {

namespace {
// One graph of the update: a learner's batch shape never changes. Captured
// after three eager passes, which warm up cuBLAS and cuDNN and create the
// optimizer's state (nothing may allocate outside the graph's pool meanwhile).
std::unique_ptr<CudaGraphs> update_graphs(torch::Device device) {
  return std::make_unique<CudaGraphs>(device, true, /*capture_after=*/3, /*max_graphs=*/1);
}
}  // namespace

DataParallelLearner::DataParallelLearner(const ModelFactory& make_model, const ActionSpec& action,
                                         const LearnerConfig& config, TrajectoryStore& store, ParamPublisher& publisher,
                                         std::vector<torch::Device> devices, DataParallelOptions options)
    : config_(config), base_loss_(config.loss), store_(store), publisher_(publisher), options_(options) {
  const int n = static_cast<int>(devices.size());
  check_batch_splits(config_.batch_size, n, "unrolls");
  const bool any_cuda = std::any_of(devices.begin(), devices.end(), [](const torch::Device& d) { return d.is_cuda(); });
  // Learner batches in page-locked memory, so that copying them to the GPUs is asynchronous.
  if (any_cuda) store_.pin_batches(true);
  prefetch_ = options_.prefetch == DataParallelOptions::Prefetch::kAlways ||
              (options_.prefetch == DataParallelOptions::Prefetch::kAuto && any_cuda);
  replicas_ = std::make_unique<ReplicaSet<AgentNet>>(make_model, 1, devices, config_.optimizer, options_);
  for (int r = 0; r < n; ++r) dists_.push_back(make_policy_distribution(action));
  losses_.resize(n);
  grad_norms_.resize(n);
  if (options_.cuda_graphs && n == 1 && !options_.rendezvous && devices.front().is_cuda()) {
    const char* eager_because = !CudaGraphs::supported()     ? "this build has no CUDA graphs"
                                : model()->normalizes_obs()  ? "--normalize-obs updates its moments outside the graph"
                                : !replicas_->device_step(0) ? "its optimizer step runs on the host"
                                                             : nullptr;
    if (eager_because) {
      spdlog::info("--cuda-graphs: the learner's update runs eagerly ({})", eager_because);
    } else {
      const torch::Device device = devices.front();
      stream_ = c10::impl::VirtualGuardImpl(device.type()).getStreamFromGlobalPool(device, false);
      graphs_ = update_graphs(device);
    }
  } else if (options_.cuda_graphs && (n > 1 || options_.rendezvous)) {
    spdlog::info("--cuda-graphs: the {} learner replicas update eagerly (their all-reduce sits inside the update)",
                 replicas_->world_size());
  }
}

DataParallelLearner::~DataParallelLearner() = default;

AgentNet& DataParallelLearner::model() { return replicas_->net(0); }
torch::optim::Optimizer& DataParallelLearner::optimizer() { return replicas_->optimizer(0); }
AgentNet& DataParallelLearner::replica_model(int rank) { return replicas_->net(rank); }
bool DataParallelLearner::update_replayed() const { return graphs_ && graphs_->replayed_last(); }

void DataParallelLearner::publish() { publisher_.publish(*model(), steps_); }

void DataParallelLearner::replica_update(int rank) {
  const torch::Device device = replicas_->device(rank);
  if (graphs_) {
    c10::StreamGuard stream(*stream_);
    grad_norms_[rank] = graphed_update(rank, job_.shards[rank]);
    // The caller reads the losses and publishes the weights on its own stream.
    synchronize_current_stream(device);
    return;
  }
  GradientReduction reduce;
  if (replicas_->grouped()) {
    reduce.before_backward = [this, rank] { replicas_->prepare_gradients(rank); };
    reduce.after_backward = [this, rank] { replicas_->reduce_gradients(rank); };
  }
  grad_norms_[rank] =
      vtrace_update(replicas_->net(rank), *dists_[rank], replicas_->optimizer(rank), job_.shards[rank], config_, device,
                    job_.lr, losses_[rank], job_.normalizer, reduce, replicas_->device_step(rank));
}

torch::Tensor DataParallelLearner::graphed_update(int rank, const UnrollBatch& shard) {
  const torch::Device device = replicas_->device(rank);
  AgentNet& model = replicas_->net(rank);
  torch::optim::Optimizer& optimizer = replicas_->optimizer(rank);
  DeviceOptimizerStep& device_step = *replicas_->device_step(rank);
  const PolicyDistribution& dist = *dists_[rank];
  for (auto& group : optimizer.param_groups()) group.options().set_lr(job_.lr);  // as checkpoints record it
  // On the device first: a graph is captured on device tensors, and each
  // replay copies the next batch into them.
  const std::vector<torch::Tensor> in{shard.obs.to(device, true),
                                      shard.actions.to(device, true),
                                      shard.policy.to(device, true),
                                      shard.rewards.to(device, true),
                                      shard.flags.to(device, true),
                                      shard.core_h.defined() ? shard.core_h.to(device, true) : torch::Tensor(),
                                      shard.core_c.defined() ? shard.core_c.to(device, true) : torch::Tensor()};
  const CudaGraphs::Fn pass = [&](const std::vector<torch::Tensor>& t) {
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
    auto norm = vtrace_pass(model, dist, optimizer, b, config_, device, l, /*normalizer=*/0, {}, &device_step);
    return std::vector<torch::Tensor>{l.total, l.pg, l.baseline, l.entropy, l.mean_rho, l.clip_fraction, norm};
  };
  std::vector<torch::Tensor> out;
  for (int epoch = 0; epoch < std::max(1, config_.epochs); ++epoch) {
    if (device_step.prepare(job_.lr) && graphs_->captured() > 0) {
      // New weights or optimizer state (a checkpoint was loaded): the graph
      // would go on updating the old tensors.
      spdlog::info("--cuda-graphs: the learner's weights or optimizer state were replaced; capturing its update again");
      graphs_ = update_graphs(device);
    }
    out = graphs_->run(static_cast<int>(shard.obs.size(1)), in, pass);
  }
  losses_[rank] = {out[0], out[1], out[2], out[3], out[4], out[5]};
  return out[6];
}

void DataParallelLearner::verify_replicas() { replicas_->verify(steps_); }

void DataParallelLearner::sync_replicas() { replicas_->sync_from_first(steps_); }

bool DataParallelLearner::step(LearnerStats& stats) {
  bool got = false;
  if (prefetch_) {
    if (!prefetcher_) prefetcher_ = std::make_unique<BatchPrefetcher>(store_, config_.batch_size);
    got = prefetcher_->next(batch_);
  } else {
    got = store_.next_batch(config_.batch_size, batch_);
  }
  if (!replicas_->spans_processes()) {
    if (got) update(batch_, stats);
    return got;
  }
  // Learner processes: every one takes part in every update or none does.
  try {
    const auto t0 = SteadyClock::now();
    const Agreed agreed = agree(got);
    agree_ns_ += ns_since(t0);
    const auto t1 = SteadyClock::now();
    if (agreed.stop) {
      // Every rank is here, at the same update: the last chance to prove them identical.
      replicas_->verify(steps_);
      spdlog::info(
          "learner ranks: stopping after {} updates ({} of the processes ended), weights identical on all {} "
          "ranks (checksum {})",
          steps_, agreed.stoppers, replicas_->world_size(), weights_checksum());
      if (updated_ > 0) {
        const double n = static_cast<double>(updated_);
        const double agree_ms = agree_ns_ / n * 1e-6, reduce_ms = replicas_->reduce_wait_ns() / n * 1e-6;
        const double update_ms = update_ns_ / n * 1e-6;
        spdlog::info(
            "learner ranks: per update {:.2f} ms agreeing (the word, and waiting for the other ranks to reach it) and "
            "{:.2f} ms waiting on the gradient all-reduce, beside {:.2f} ms of update ({:.0f}% in collectives)",
            agree_ms, reduce_ms, update_ms - reduce_ms, 100.0 * (agree_ms + reduce_ms) / (agree_ms + update_ms));
      }
      return false;
    }
    update(batch_, stats, agreed.valid, agreed.frames);
    update_ns_ += ns_since(t1);
    ++updated_;
  } catch (const std::exception& e) {
    // c10d's error names an address or a timeout; say what it means for the run.
    const std::string why = error_text(e);
    if (why.rfind("learner replicas diverged", 0) == 0) throw;
    // A killed rank's sockets reset while its process is still exiting: give
    // a rank of this host a moment to be gone before saying who left.
    std::string gone = replicas_->gone_ranks();
    const auto settle = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (gone.empty() && std::chrono::steady_clock::now() < settle) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      gone = replicas_->gone_ranks();
    }
    throw std::runtime_error(
        "learner processes: " + (gone.empty() ? "lost another rank (it died or stopped answering)" : gone + " exited") +
        "; every rank stops after " + std::to_string(steps_) + " updates: " + why);
  }
  return true;
}

DataParallelLearner::Agreed DataParallelLearner::agree(bool have_batch) {
  // One float64 word per rank, summed: [stopping, valid transitions, frames
  // in the batch, run frames, run episodes]; local rank 0 speaks for this process.
  std::array<std::int64_t, 2> mine{0, 0};
  if (options_.tally) mine = options_.tally->take_local();
  const double valid = have_batch ? valid_transitions(batch_) : 0.0;
  const double frames = have_batch ? static_cast<double>((batch_.obs.size(0) - 1) * batch_.obs.size(1)) : 0.0;
  std::vector<torch::Tensor> words(replicas());
  for (int r = 0; r < replicas(); ++r) {
    auto host = torch::zeros({5}, torch::kFloat64);
    if (r == 0) {
      double* w = host.data_ptr<double>();
      w[0] = have_batch ? 0.0 : 1.0;
      w[1] = valid;
      w[2] = frames;
      w[3] = static_cast<double>(mine[0]);
      w[4] = static_cast<double>(mine[1]);
    }
    words[r] = host.to(replicas_->device(r));
  }
  replicas_->run([&](int rank) { replicas_->allreduce_sum(rank, words[rank]); });
  const auto sum = words[0].to(torch::kCPU);
  const double* w = sum.data_ptr<double>();
  if (options_.tally)
    options_.tally->add_others({static_cast<std::int64_t>(w[3]) - mine[0], static_cast<std::int64_t>(w[4]) - mine[1]});
  Agreed a;
  a.stoppers = static_cast<int>(w[0]);
  a.stop = a.stoppers > 0;
  a.valid = w[1];
  a.frames = static_cast<std::int64_t>(w[2]);
  return a;
}

std::string DataParallelLearner::weights_checksum() {
  const auto c = parameter_checksum(*model(), torch::kCPU);
  return fmt::format("{:.17g}", c[0].item<double>());
}

std::uint64_t DataParallelLearner::batch_wait_ns() const {
  return prefetcher_ ? prefetcher_->wait_ns() : store_.learner_wait_ns();
}

void DataParallelLearner::update(const UnrollBatch& batch, LearnerStats& stats) { update(batch, stats, 0.0, -1); }

void DataParallelLearner::update(const UnrollBatch& batch, LearnerStats& stats, double all_valid,
                                 std::int64_t all_frames) {
  const std::int64_t T = batch.obs.size(0) - 1;
  const std::int64_t B = batch.obs.size(1);
  const int n = replicas();
  if (B < n)
    throw std::invalid_argument("--batch-size: a batch of " + std::to_string(B) + " unrolls cannot feed " +
                                std::to_string(n) + " learner replicas");
  job_.lr = decayed_learning_rate(config_, frames_);
  // Read by the replicas' threads only inside run_update below.
  config_.loss.entropy_cost = scheduled_entropy_cost(base_loss_, config_.max_frames, frames_);
  // One replica: its own count (the plain VTraceLearner update). Several:
  // the whole batch's count, so the summed gradient is the batch's gradient.
  // Learner processes (all_frames >= 0): every process's batch's count, all_valid.
  job_.normalizer = all_frames >= 0 ? std::max(1.0, all_valid) : n == 1 ? 0.0 : std::max(1.0, valid_transitions(batch));
  job_.shards.resize(n);
  for (int r = 0; r < n; ++r) {
    job_.shards[r] = n == 1 ? batch : shard_of(batch, shard_range(B, r, n));
  }
  replicas_->run_update(steps_ + 1, [this](int rank) { replica_update(rank); });
  ++steps_;
  frames_ += all_frames < 0 ? T * B : all_frames;
  publish();

  LearnerStats s;
  for (int r = 0; r < n; ++r) {
    // Each replica's losses are its share of the batch's: they add up. One
    // copy to the host per replica, not one wait for the device per number.
    const VTraceLosses& l = losses_[r];
    auto host = torch::stack({l.total, l.pg, l.baseline, l.entropy, l.mean_rho, l.clip_fraction,
                              grad_norms_[r].to(l.total.options())})
                    .to(torch::kCPU, torch::kFloat64);
    const double* v = host.data_ptr<double>();
    s.total_loss += v[0];
    s.pg_loss += v[1];
    s.baseline_loss += v[2];
    s.entropy += v[3];
    s.mean_rho += v[4];
    s.clip_fraction += v[5];
    if (r == 0) s.grad_norm = v[6];
  }
  if (all_frames >= 0) {
    // This process's losses are its share of all processes' batches: scaled
    // to its own batch, they read as a one-process run's do.
    const double share = job_.normalizer / std::max(1.0, valid_transitions(batch));
    s.total_loss *= share;
    s.pg_loss *= share;
    s.baseline_loss *= share;
    s.entropy *= share;
    s.mean_rho *= share;
    s.clip_fraction *= share;
  }
  s.learning_rate = job_.lr;
  s.entropy_cost = config_.loss.entropy_cost;
  s.policy_lag = static_cast<double>(steps_ - 1) - batch.versions.to(torch::kFloat64).mean().item<double>();
  stats = s;
}

}  // namespace seedrl
