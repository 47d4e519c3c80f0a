#include "seedrl/learner/data_parallel.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

#include <ATen/Parallel.h>
#include <c10/core/DeviceGuard.h>
#include <torch/torch.h>

#include "seedrl/learner/gradient_buckets.h"
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

namespace {

std::vector<torch::Tensor> weights_and_buffers(AgentNet& model) {
  std::vector<torch::Tensor> out;
  for (auto& p : model->parameters()) out.push_back(p.detach());
  for (auto& b : model->buffers()) out.push_back(b.detach());
  return out;
}

// Three position-sensitive float64 sums over every parameter and buffer:
// identical replicas give bit-identical checksums.
torch::Tensor parameter_checksum(AgentNet& model, torch::Device device) {
  torch::NoGradGuard no_grad;
  auto opts = torch::TensorOptions().dtype(torch::kFloat64).device(device);
  auto sum = torch::zeros({}, opts), sq = torch::zeros({}, opts), weighted = torch::zeros({}, opts);
  double k = 0;
  for (auto& t : weights_and_buffers(model)) {
    auto d = t.to(device, torch::kFloat64).flatten();
    sum += d.sum();
    sq += d.pow(2).sum();
    weighted += (d * torch::cos(torch::arange(d.numel(), opts) + (k += 1.0))).sum();
  }
  return torch::stack({sum, sq, weighted});
}

std::string describe_checksum(const torch::Tensor& c) {
  auto cpu = c.to(torch::kCPU);
  std::ostringstream os;
  os << std::setprecision(17) << "[" << cpu[0].item<double>() << ", " << cpu[1].item<double>() << ", "
     << cpu[2].item<double>() << "]";
  return os.str();
}

UnrollBatch shard_of(const UnrollBatch& b, std::int64_t start, std::int64_t count) {
  UnrollBatch s;
  s.obs = b.obs.narrow(1, start, count);
  s.actions = b.actions.narrow(1, start, count);
  s.policy = b.policy.narrow(1, start, count);
  s.rewards = b.rewards.narrow(1, start, count);
  s.flags = b.flags.narrow(1, start, count);
  if (b.core_h.defined()) {
    s.core_h = b.core_h.narrow(0, start, count);
    s.core_c = b.core_c.narrow(0, start, count);
  }
  s.versions = b.versions.narrow(0, start, count);
  if (b.slots.defined()) s.slots = b.slots.narrow(0, start, count);
  return s;
}

}  // namespace

DataParallelLearner::DataParallelLearner(const ModelFactory& make_model, const ActionSpec& action,
                                         const LearnerConfig& config, TrajectoryStore& store,
                                         ParamPublisher& publisher, std::vector<torch::Device> devices,
                                         DataParallelOptions options)
    : config_(config), store_(store), publisher_(publisher), options_(options) {
  const int n = static_cast<int>(devices.size());
  if (n < 1) throw std::invalid_argument("--learner-devices: no learner device");
  if (config_.batch_size < n)
    throw std::invalid_argument("--batch-size: " + std::to_string(config_.batch_size) +
                                " unrolls cannot be split across " + std::to_string(n) +
                                " learner devices (--learner-devices); give every device at least one");
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
  errors_.resize(n);
  for (int r = 1; r < n; ++r) workers_.emplace_back([this, r] { worker_loop(r); });
  if (group_) {
    // Every replica starts from replica 0's weights.
    run_on_replicas([this](int rank) {
      for (auto& t : weights_and_buffers(replicas_[rank]->model)) group_->broadcast(rank, t, 0);
    });
  }
}

DataParallelLearner::~DataParallelLearner() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& w : workers_) w.join();
}

AgentNet& DataParallelLearner::model() { return replicas_.front()->model; }
torch::optim::Optimizer& DataParallelLearner::optimizer() { return *replicas_.front()->optimizer; }
AgentNet& DataParallelLearner::replica_model(int rank) { return replicas_.at(rank)->model; }

void DataParallelLearner::publish() { publisher_.publish(*replicas_.front()->model, steps_); }

void DataParallelLearner::worker_loop(int rank) {
  at::init_num_threads();  // this thread's intra-op width follows torch::set_num_threads
  std::uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    std::exception_ptr error;
    try {
      if (job_.custom) {
        job_.custom(rank);
      } else {
        replica_update(rank);
      }
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(mu_);
      errors_[rank] = error;
      ++done_;
    }
    done_cv_.notify_all();
  }
}

void DataParallelLearner::run_round() {
  at::init_num_threads();
  {
    std::lock_guard lock(mu_);
    done_ = 0;
    ++generation_;
  }
  work_cv_.notify_all();
  std::exception_ptr error;
  try {
    if (job_.custom) {
      job_.custom(0);
    } else {
      replica_update(0);
    }
  } catch (...) {
    error = std::current_exception();
  }
  {
    std::unique_lock lock(mu_);
    done_cv_.wait(lock, [&] { return done_ == replicas() - 1; });
    for (int r = 1; r < replicas() && !error; ++r) error = errors_[r];
  }
  if (error) std::rethrow_exception(error);
}

void DataParallelLearner::run_on_replicas(const std::function<void(int rank)>& fn) {
  job_.custom = fn;
  try {
    run_round();
  } catch (...) {
    job_.custom = nullptr;
    throw;
  }
  job_.custom = nullptr;
}

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
  if (job_.checksum) checksum_collective(rank);
}

void DataParallelLearner::checksum_collective(int rank) {
  Replica& r = *replicas_[rank];
  auto gathered = group_->allgather(rank, parameter_checksum(r.model, r.device));
  for (int other = 1; other < replicas(); ++other) {
    if (!torch::equal(gathered[other].to(torch::kCPU), gathered[0].to(torch::kCPU))) {
      throw std::runtime_error("learner replicas diverged after " + std::to_string(job_.step) +
                               " updates: replica " + std::to_string(other) + " (" +
                               replicas_[other]->device.str() + ") parameter checksum " +
                               describe_checksum(gathered[other]) + " differs from replica 0's " +
                               describe_checksum(gathered[0]) + "; stopping rather than training diverged copies");
    }
  }
}

void DataParallelLearner::verify_replicas() {
  if (!group_) return;
  job_.step = steps_;
  run_on_replicas([this](int rank) { checksum_collective(rank); });
}

void DataParallelLearner::sync_replicas() {
  if (!group_) return;
  torch::serialize::OutputArchive out;
  replicas_.front()->optimizer->save(out);
  std::ostringstream bytes;
  out.save_to(bytes);
  const std::string state = bytes.str();
  for (int r = 1; r < replicas(); ++r) {
    std::istringstream in_bytes(state);
    torch::serialize::InputArchive in;
    in.load_from(in_bytes, replicas_[r]->device);
    replicas_[r]->optimizer->load(in);
  }
  run_on_replicas([this](int rank) {
    for (auto& t : weights_and_buffers(replicas_[rank]->model)) group_->broadcast(rank, t, 0);
  });
  verify_replicas();
}

bool DataParallelLearner::step(LearnerStats& stats) {
  if (!store_.next_batch(config_.batch_size, batch_)) return false;
  update(batch_, stats);
  return true;
}

void DataParallelLearner::update(const UnrollBatch& batch, LearnerStats& stats) {
  const std::int64_t T = batch.obs.size(0) - 1;
  const std::int64_t B = batch.obs.size(1);
  const int n = replicas();
  if (B < n)
    throw std::invalid_argument("--batch-size: a batch of " + std::to_string(B) + " unrolls cannot feed " +
                                std::to_string(n) + " learner replicas");
  job_.custom = nullptr;
  job_.lr = decayed_learning_rate(config_, frames_);
  // One replica: its own count (the plain VTraceLearner update). Several:
  // the whole batch's count, so the summed gradient is the batch's gradient.
  job_.normalizer = n == 1 ? 0.0 : std::max(1.0, valid_transitions(batch));
  job_.step = steps_ + 1;
  job_.checksum = group_ && options_.checksum_every > 0 && job_.step % options_.checksum_every == 0;
  job_.shards.resize(n);
  for (int r = 0; r < n; ++r) {
    const std::int64_t b0 = B * r / n, b1 = B * (r + 1) / n;
    job_.shards[r] = n == 1 ? batch : shard_of(batch, b0, b1 - b0);
  }
  run_round();
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
