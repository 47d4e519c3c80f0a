#include "seedrl/learner/replica_threads.h"

#include <chrono>

#include <ATen/Parallel.h>

#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/denormals.h"
#include "seedrl/util/futex.h"
#include "seedrl/util/thread_name.h"

namespace seedrl {

namespace {

// Spins until ready() or about kSpinFor has passed; true if ready. The clock
// is read once per batch of pauses, so the bound costs next to nothing. The
// bound covers the waits between SAC's phases, the learner thread's serial
// steps and the actor's step beside the replay sample included, which run
// some hundreds of microseconds (bench/RESULTS.md).
template <typename Ready>
bool spin_until(const Ready& ready) {
  constexpr auto kSpinFor = std::chrono::microseconds(400);
  const auto until = std::chrono::steady_clock::now() + kSpinFor;
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

}  // namespace

ReplicaThreads::ReplicaThreads(int ranks, std::vector<std::vector<int>> cpus)
    : ranks_(ranks), errors_(static_cast<std::size_t>(ranks)) {
  for (int r = 1; r < ranks_; ++r) {
    std::vector<int> mine = r < static_cast<int>(cpus.size()) ? cpus[r] : std::vector<int>{};
    threads_.emplace_back([this, r, mine] {
      name_this_thread("learner " + std::to_string(r));
      flush_denormals_on_this_thread();
      set_thread_cpus(mine);  // empty: refused, the thread stays where it is
      loop(r);
    });
  }
}

ReplicaThreads::~ReplicaThreads() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void ReplicaThreads::loop(int rank) {
  at::init_num_threads();  // this thread's intra-op width follows torch::set_num_threads
  std::uint64_t seen = 0;
  while (true) {
    const auto woken = [&] { return stop_.load() || generation_.load() != seen; };
    if (!spin_until(woken)) {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, woken);
    }
    if (stop_) return;
    seen = generation_;
    std::exception_ptr error;
    try {
      job_(rank);
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

void ReplicaThreads::run(const std::function<void(int)>& fn) {
  at::init_num_threads();
  {
    std::lock_guard lock(mu_);
    job_ = fn;
    done_ = 0;
    ++generation_;
  }
  work_cv_.notify_all();
  std::exception_ptr error;
  try {
    fn(0);
  } catch (...) {
    error = std::current_exception();
  }
  const auto all_done = [&] { return done_.load() == ranks_ - 1; };
  spin_until(all_done);
  {
    std::unique_lock lock(mu_);
    done_cv_.wait(lock, all_done);
    for (int r = 1; r < ranks_ && !error; ++r) error = errors_[r];
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace seedrl
