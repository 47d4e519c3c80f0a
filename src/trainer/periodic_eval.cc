#include "seedrl/trainer/periodic_eval.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/env/training_progress.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/trainer/agent_policy.h"
#include "seedrl/util/denormals.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/rng.h"
#include "seedrl/util/thread_name.h"

namespace seedrl {

namespace {

// Far above any actor's env slot (derive_seed(seed, slot)).
constexpr std::uint64_t kEvalSeedIndex = 0x6576616c00000000ull;  // "eval"

const char* const kColumns[] = {"eval_return_mean", "eval_return_std", "eval_episodes", "eval_frames"};

struct Stopped {};

}  // namespace

std::uint64_t eval_seed(std::uint64_t run_seed) { return derive_seed(run_seed, kEvalSeedIndex); }

std::optional<EvalResult> resumed_best_eval(const TrainConfig& config) {
  if (!config.resume || config.eval_every_s <= 0) return std::nullopt;
  try {
    return read_best_eval(best_checkpoint_path(config.logdir));
  } catch (const std::exception& e) {
    throw std::invalid_argument("--resume: " + error_text(e) +
                                "; move it away to let this run's evaluations start a new best");
  }
}

PeriodicEval::PeriodicEval(const TrainConfig& config, const EnvSpec& spec, int policy_size, ParamPublisher& publisher,
                           const std::atomic<std::int64_t>& frames, std::optional<EvalResult> best_so_far)
    : enabled_(config.eval_every_s > 0),
      config_(config),
      best_path_(best_checkpoint_path(config.logdir)),
      publisher_(publisher),
      frames_(frames),
      seed_(eval_seed(config.seed)),
      best_(std::move(best_so_far)) {
  if (!enabled_) return;
  // Built like the learner's model, then only ever overwritten with
  // published weights: its own initialisation does not matter.
  model_ = AgentNet(spec, config.model, policy_size);
  model_->to(torch::kCPU);
  model_->eval();
  env_ = EnvRegistry::builtin().make(config.env, config.env_options);
  spec_ = spec;
}

PeriodicEval::~PeriodicEval() {
  request_stop();
  join();
}

void PeriodicEval::start() {
  if (!enabled_) return;
  spdlog::info("evaluation: {} {} episodes every {} s and at the end (env seed {}), the best kept as {}",
               config_.eval_episodes, config_.eval_greedy ? "greedy" : "sampled", config_.eval_every_s, seed_,
               best_path_);
  if (best_)
    spdlog::info("evaluation: best so far {:.2f} at {} frames ({})", best_->return_mean, best_->frames, best_path_);
  thread_ = std::thread([this] {
    name_this_thread("eval");
    flush_denormals_on_this_thread();
    loop();
  });
}

void PeriodicEval::request_stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  stop_flag_.store(true);
  wake_.notify_all();
}

void PeriodicEval::join() {
  if (thread_.joinable()) thread_.join();
}

void PeriodicEval::loop() {
  const auto every = std::chrono::duration<double>(config_.eval_every_s);
  try {
    std::unique_lock lock(mu_);
    while (!wake_.wait_for(lock, every, [this] { return stop_; })) {
      lock.unlock();
      evaluate_once([this] { return stop_flag_.load(std::memory_order_relaxed); });
      lock.lock();
    }
  } catch (const std::exception& e) {
    // The run does not depend on its evaluations: it goes on without them.
    spdlog::error("evaluation failed: {}; training goes on without evaluations", error_text(e));
  }
}

void PeriodicEval::evaluate_final(const std::function<bool()>& stop) {
  if (!enabled_) return;
  spdlog::info("evaluation: the final weights, {} episodes (Ctrl-C skips it)", config_.eval_episodes);
  try {
    evaluate_once(stop);
  } catch (const std::exception& e) {
    spdlog::error("final evaluation failed: {}", error_text(e));
  }
}

bool PeriodicEval::evaluate_once(const std::function<bool()>& stop) {
  // The frames before the weights: these weights have seen at least that many.
  const std::int64_t frames = frames_.load();
  have_version_ = publisher_.sync(*model_, have_version_);
  if (have_version_ < 0 || have_version_ == evaluated_version_) return true;  // nothing new to evaluate
  // Its sampling stream starts at the seed each time, as `seedrl eval --seed` does.
  const PlayPolicy policy = agent_play_policy(model_, spec_, config_.eval_greedy, seed_);
  const PlayPolicy guarded = [&policy, &stop](const void* obs, bool first, float reward, float* action) {
    if (stop()) throw Stopped{};
    policy(obs, first, reward, action);
  };
  // An env with a curriculum plays where training is.
  set_training_progress(*env_, training_progress(frames, std::max<std::int64_t>(config_.learner.max_frames, 1)));
  PlayStats stats;
  try {
    stats = play_episodes(*env_, guarded, config_.eval_episodes, seed_);
  } catch (const Stopped&) {
    return false;
  }
  evaluated_version_ = have_version_;

  EvalResult r;
  r.return_mean = stats.return_mean;
  r.return_std = stats.return_std;
  r.episodes = stats.episodes;
  r.frames = frames;
  r.learner_steps = have_version_;
  r.seed = seed_;
  r.greedy = config_.eval_greedy;
  bool better;
  {
    std::lock_guard lock(mu_);
    better = std::isfinite(r.return_mean) && (!best_ || r.return_mean > best_->return_mean);
  }
  if (better) {
    try {
      save_best_checkpoint(best_path_, model_, config_, r);
      save_warning_.clear();
    } catch (const std::exception& e) {
      // The run goes on; the earlier best.pt (if any) is intact, and so is the best it records.
      const std::string why = error_text(e);
      if (why != save_warning_) spdlog::warn("{} not written: {} (training goes on)", best_path_, why);
      save_warning_ = why;
      better = false;
    }
  }
  std::lock_guard lock(mu_);
  last_ = r;
  if (better) best_ = r;
  rows_.push_back({{"eval_return_mean", r.return_mean},
                   {"eval_return_std", r.return_std},
                   {"eval_episodes", static_cast<double>(r.episodes)},
                   {"eval_frames", static_cast<double>(r.frames)}});
  return true;
}

std::vector<Scalars> PeriodicEval::take_rows() {
  std::lock_guard lock(mu_);
  return std::exchange(rows_, {});
}

void PeriodicEval::add_columns(Scalars& out) const {
  if (!enabled_) return;
  for (const char* key : kColumns) out.emplace(key, std::numeric_limits<double>::quiet_NaN());
}

void PeriodicEval::add_summary(Scalars& out) const {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  const double none = std::numeric_limits<double>::quiet_NaN();
  out["eval_return_mean"] = last_ ? last_->return_mean : none;
  out["eval_return_std"] = last_ ? last_->return_std : none;
  out["eval_episodes"] = last_ ? last_->episodes : none;
  out["eval_frames"] = last_ ? static_cast<double>(last_->frames) : none;
  out["eval_best_return_mean"] = best_ ? best_->return_mean : none;
  out["eval_best_frames"] = best_ ? static_cast<double>(best_->frames) : none;
}

}  // namespace seedrl
