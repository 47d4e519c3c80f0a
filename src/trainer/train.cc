#include "seedrl/trainer/train.h"

#include <stdexcept>

#include "seedrl/trainer/learner_processes.h"
#include "seedrl/trainer/memory_budget.h"
#include "seedrl/trainer/r2d2_algorithm.h"
#include "seedrl/trainer/remote_training.h"
#include "seedrl/trainer/run_dashboard.h"
#include "seedrl/trainer/sac_algorithm.h"
#include "seedrl/trainer/training_run.h"
#include "seedrl/trainer/vtrace_algorithm.h"

namespace seedrl {

int train(TrainConfig config) {
  net::validate_remote_flags(config);
  validate_dashboard_flags(config);
  check_train_memory(config);  // before anything is allocated
  if (config.algo == "r2d2" && config.eval_every_s > 0)
    throw std::invalid_argument("--eval-every-s: V-trace only; R2D2 evaluates all along with --eval-envs");
  if (config.algo == "sac" && config.eval_every_s > 0)
    throw std::invalid_argument("--eval-every-s: V-trace only; evaluate a SAC run's checkpoint with `seedrl eval`");
  finalize_learner_processes(config);
  resolve_defaults(config);
  if (config.algo == "r2d2") {
    R2D2Algorithm r2d2(config);
    return run_training(config, r2d2);
  }
  if (config.algo == "sac") {
    SacAlgorithm sac(config);
    return run_training(config, sac);
  }
  VTraceAlgorithm vtrace(config);
  return run_training(config, vtrace);
}

}  // namespace seedrl
