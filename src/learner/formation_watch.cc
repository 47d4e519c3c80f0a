#include "formation_watch.h"

#include <exception>
#include <vector>

#include "seedrl/util/error_text.h"
#include "seedrl/util/host_name.h"

namespace seedrl {

namespace {
const std::string kFailedKey = "formation/failed";
std::string seen_key(int rank) { return "formation/seen/" + std::to_string(rank); }
std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }
}  // namespace

FormationWatch::FormationWatch(c10::intrusive_ptr<c10d::Store> store, int first_rank, int local_ranks, int world_size,
                               std::chrono::milliseconds linger, std::string store_name, End end)
    : store_(std::move(store)),
      first_rank_(first_rank),
      local_ranks_(local_ranks),
      world_size_(world_size),
      linger_(linger),
      store_name_(std::move(store_name)),
      end_(std::move(end)) {
  thread_ = std::thread([this] { watch(); });
}

FormationWatch::~FormationWatch() {
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  thread_.join();
}

void FormationWatch::report(int rank, const std::string& why, const std::string& line) {
  if (reported_here_.exchange(true)) {
    end_(line);  // another local rank reported first; this one only ends
    return;
  }
  try {
    std::lock_guard<std::mutex> lock(store_mutex_);
    store_->set(kFailedKey,
                bytes("rank " + std::to_string(rank) + " (on " + host_name() + ") could not join the group: " + why));
  } catch (const std::exception&) {
    // The store is unreachable too: the others will see it go or time out.
  }
  acknowledge();
  linger_if_serving_the_store();
  end_(line);
}

void FormationWatch::watch() {
  // Polled, not waited on: c10d's Store::wait cannot be interrupted when the
  // group forms and the watch must stop.
  const auto poll = std::chrono::milliseconds(100);
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(stop_mutex_);
      if (stop_cv_.wait_for(lock, poll, [this] { return stop_; })) return;
    }
    if (reported_here_.load()) return;
    std::string failed;
    try {
      std::lock_guard<std::mutex> lock(store_mutex_);
      if (!store_->check({kFailedKey})) continue;
      const std::vector<std::uint8_t> v = store_->get(kFailedKey);
      failed.assign(v.begin(), v.end());
    } catch (const std::exception& e) {
      {
        std::lock_guard<std::mutex> lock(stop_mutex_);
        if (stop_) return;
      }
      end_(stops() + "the store at " + store_name_ +
           " went away while the group formed (rank 0's process ended?): " + error_text(e));
      return;
    }
    if (reported_here_.load()) return;
    acknowledge();
    linger_if_serving_the_store();
    end_(stops() + failed);
    return;
  }
}

std::string FormationWatch::stops() const {
  return "learner processes: rank " + std::to_string(first_rank_) + " stops: ";
}

void FormationWatch::acknowledge() {
  try {
    std::lock_guard<std::mutex> lock(store_mutex_);
    for (int r = 0; r < local_ranks_; ++r) store_->set(seen_key(first_rank_ + r), bytes("1"));
  } catch (const std::exception&) {
  }
}

void FormationWatch::linger_if_serving_the_store() {
  if (first_rank_ != 0) return;
  std::vector<std::string> others;
  for (int g = local_ranks_; g < world_size_; ++g) others.push_back(seen_key(g));
  if (others.empty()) return;
  try {
    std::lock_guard<std::mutex> lock(store_mutex_);
    store_->wait(others, linger_);
  } catch (const std::exception&) {
    // A rank that never started never reads it: the deadline ends the wait.
  }
}

}  // namespace seedrl
