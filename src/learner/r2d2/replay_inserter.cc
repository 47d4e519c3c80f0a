#include "seedrl/learner/r2d2/replay_inserter.h"

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>

#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/trajectory/trajectory_store.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/thread_name.h"

namespace seedrl::r2d2 {

ReplayInserter::ReplayInserter(TrajectoryStore& store, Replay& replay, Priority priority)
    : store_(store), replay_(replay), priority_(std::move(priority)) {}

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
    // Each unroll is copied once, from the store's pool into the replay.
    UnrollBatch one;
    for (int u; (u = store_.borrow_unroll(one)) >= 0;) {
      const bool inserted = replay_.insert(one, 0, priority_(one));
      store_.release(u);
      if (!inserted) break;
    }
  } catch (const std::exception& e) {
    spdlog::error("replay inserter failed: {}", error_text(e));
    failed_.store(true);
  }
}

}  // namespace seedrl::r2d2
