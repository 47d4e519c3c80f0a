// V-trace's periodic evaluation (--eval-every-s): a thread of its own that,
// every S seconds, copies the newest published weights into a CPU model and
// plays --eval-episodes whole episodes on an env of its own with the engine
// of `seedrl eval` (env/play.h), and once more at the run's end. It never
// holds a lock the learner or the actors wait on: it reads the weights the
// way an inference thread does (ParamPublisher::sync). Each result becomes a
// metrics row (eval_return_mean, eval_return_std, eval_episodes, eval_frames)
// and one that beats the best so far is saved as logdir/best.pt
// (trainer/best_checkpoint.h).
//
// Every evaluation plays from the same seed, derived from --seed apart from
// the actors' seeds, for its env and for a sampling stream of its own: the
// evaluations compare weights on the same episode starts, and `seedrl eval
// --checkpoint best.pt --seed S` (S from the log; --greedy with
// --eval-greedy) replays best.pt's score exactly.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "seedrl/env/play.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/metrics_writer.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/publisher/param_publisher.h"
#include "seedrl/trainer/best_checkpoint.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// The env seed of a run's evaluations.
std::uint64_t eval_seed(std::uint64_t run_seed);

// With --resume and evaluations on, the best so far that logdir/best.pt
// records. One that cannot be read is refused (std::invalid_argument naming
// it) rather than overwritten.
std::optional<EvalResult> resumed_best_eval(const TrainConfig& config);

class PeriodicEval {
 public:
  // Off when config.eval_every_s is 0. `best_so_far`: resumed_best_eval's.
  PeriodicEval(const TrainConfig& config, const EnvSpec& spec, int policy_size, ParamPublisher& publisher,
               const std::atomic<std::int64_t>& frames, std::optional<EvalResult> best_so_far);
  ~PeriodicEval();
  PeriodicEval(const PeriodicEval&) = delete;
  PeriodicEval& operator=(const PeriodicEval&) = delete;

  bool enabled() const { return enabled_; }
  void start();
  // Also ends an evaluation under way, at its next step.
  void request_stop();
  void join();
  // After the learner stopped: evaluates the final weights on the caller's
  // thread, unless they were the last evaluated. `stop` (Ctrl-C) ends it at
  // the next step, without a result.
  void evaluate_final(const std::function<bool()>& stop);

  // The evaluations finished since the last call, as metrics rows of eval_*
  // keys (the caller adds frames and wall_seconds).
  std::vector<Scalars> take_rows();
  // Every metrics row: the eval_* keys with no value, so that metrics.csv,
  // whose columns are its first row's, has them.
  void add_columns(Scalars& out) const;
  // summary.json: the last evaluation as eval_*, the best as eval_best_*.
  void add_summary(Scalars& out) const;

 private:
  void loop();
  // One evaluation of the newest weights; false if `stop` ended it.
  bool evaluate_once(const std::function<bool()>& stop);

  bool enabled_;
  TrainConfig config_;
  std::string best_path_;
  ParamPublisher& publisher_;
  const std::atomic<std::int64_t>& frames_;
  std::uint64_t seed_ = 0;
  AgentNet model_{nullptr};
  EnvPtr env_;
  EnvSpec spec_;
  std::int64_t have_version_ = -1;  // the weights model_ holds
  std::int64_t evaluated_version_ = -1;
  std::string save_warning_;  // the last best.pt failure logged, not repeated

  mutable std::mutex mu_;  // guards what follows
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> stop_flag_{false};
  std::vector<Scalars> rows_;
  std::optional<EvalResult> last_, best_;
  std::thread thread_;
};

}  // namespace seedrl
