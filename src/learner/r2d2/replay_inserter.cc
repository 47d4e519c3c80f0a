#include "seedrl/learner/r2d2/replay_inserter.h"

#include <exception>

#include <spdlog/spdlog.h>

#include "seedrl/learner/r2d2/r2d2_learner.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/trajectory/trajectory_store.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/thread_name.h"

namespace seedrl::r2d2 {

ReplayInserter::ReplayInserter(TrajectoryStore& store, Replay& replay, const R2D2Config& r2d2,
                               const VTraceLossConfig& loss)
    : store_(store), replay_(replay), r2d2_(r2d2), loss_(loss) {}

ReplayInserter::~ReplayInserter() { join(); }

void ReplayInserter::start() {
  thread_ = std::thread([this] {
    name_this_thread("replay insert");
    run();
  });
}

void ReplayInserter::join() {
  if (thread_.joinable()) thread_.join();
}

void ReplayInserter::run() {
  try {
    UnrollBatch one;
    while (store_.next_batch(1, one)) {
      const double p = acting_priority(one, r2d2_.burn_in, loss_, r2d2_.n_step, r2d2_.priority_eta);
      if (!replay_.insert(one, 0, p)) break;
    }
  } catch (const std::exception& e) {
    spdlog::error("replay inserter failed: {}", error_text(e));
    failed_.store(true);
  }
}

}  // namespace seedrl::r2d2
