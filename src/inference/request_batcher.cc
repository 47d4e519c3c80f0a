#include "seedrl/inference/request_batcher.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <torch/torch.h>

#include "seedrl/util/torch_dtype.h"

namespace seedrl {

RequestBatcher::RequestBatcher(const ArraySpec& observation, int batch_size, std::chrono::microseconds timeout,
                               int num_buffers, bool pin_memory)
    : batch_size_(batch_size), timeout_(timeout), fill_target_(batch_size) {
  if (batch_size < 1 || num_buffers < 1)
    throw std::invalid_argument("RequestBatcher needs batch_size >= 1 and num_buffers >= 1");
  std::vector<std::int64_t> shape{batch_size};
  shape.insert(shape.end(), observation.shape.begin(), observation.shape.end());
  auto opts = torch::TensorOptions().pinned_memory(pin_memory);
  for (int i = 0; i < num_buffers; ++i) {
    auto b = std::make_unique<InferenceBatch>();
    b->obs = torch::empty(shape, opts.dtype(to_torch_dtype(observation.dtype)));
    b->first = torch::zeros({batch_size}, opts.dtype(torch::kUInt8));
    b->slots = torch::zeros({batch_size}, opts.dtype(torch::kInt64));
    b->steps.resize(batch_size);
    b->completions.resize(batch_size);
    b->obs_ptr = static_cast<std::uint8_t*>(b->obs.data_ptr());
    b->slots_ptr = b->slots.data_ptr<std::int64_t>();
    b->first_ptr = b->first.data_ptr<std::uint8_t>();
    b->row_bytes = observation.bytes();
    free_.push_back(b.get());
    buffers_.push_back(std::move(b));
  }
  ready_.assign(buffers_.size(), nullptr);
}

RequestBatcher::~RequestBatcher() { close(); }

InferenceBatch* RequestBatcher::open_batch_locked(std::unique_lock<std::mutex>& lock) {
  // close() has already counted off the open batch's rows: a row claimed in
  // it now would never be answered.
  if (closed_) return nullptr;
  if (open_) return open_;
  free_cv_.wait(lock, [&] { return closed_ || !free_.empty() || open_; });
  if (closed_) return nullptr;
  if (open_) return open_;  // another actor opened one while we waited
  open_ = free_.back();
  free_.pop_back();
  open_->size = 0;
  open_->state = InferenceBatch::State::kFilling;
  open_->written.store(0, std::memory_order_relaxed);
  return open_;
}

void RequestBatcher::seal_locked() {
  rows_.fetch_add(open_->size, std::memory_order_relaxed);
  batches_.fetch_add(1, std::memory_order_relaxed);
  ready_[(ready_head_ + ready_count_) % ready_.size()] = open_;
  ++ready_count_;
  open_ = nullptr;
}

bool RequestBatcher::claim_rows(std::span<EnvStep> steps, Completion& completion, bool& finished) {
  finished = false;
  completion.pending.store(static_cast<std::uint32_t>(steps.size()), std::memory_order_relaxed);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    EnvStep& step = steps[k];
    InferenceBatch* b;
    int row;
    {
      std::unique_lock lock(mu_);
      b = open_batch_locked(lock);
      if (!b) {
        // Closed: the rows never claimed are counted off here; rows already
        // claimed are answered or counted off by close().
        const auto unclaimed = static_cast<std::uint32_t>(steps.size() - k);
        completion.pending.fetch_or(Completion::kClosed, std::memory_order_acq_rel);
        const std::uint32_t before = completion.pending.fetch_sub(unclaimed, std::memory_order_acq_rel);
        finished = (before & Completion::kCount) == unclaimed;
        return false;
      }
      row = b->size++;
      b->steps[row] = &step;
      b->completions[row] = &completion;
      completion.batch_answered = &b->answered;
      completion.batch_generation = b->answered.load(std::memory_order_relaxed) & Completion::kGeneration;
      b->slots_ptr[row] = step.slot;
      b->first_ptr[row] = (step.flags & kFirst) ? 1 : 0;
      if (row == 0) b->opened = std::chrono::steady_clock::now();
      const bool full = b->size >= fill_target_;
      if (full) seal_locked();
      if (row == 0 || full) ready_cv_.notify_one();
    }
    std::memcpy(b->obs_ptr + row * b->row_bytes, step.obs, b->row_bytes);
    if (b->written.fetch_add(1, std::memory_order_release) & InferenceBatch::kWaiting) futex_wake_one(b->written);
  }
  return true;
}

bool RequestBatcher::submit(std::span<EnvStep> steps, Completion& completion) {
  bool finished;
  claim_rows(steps, completion, finished);
  return completion.wait();
}

void RequestBatcher::submit_async(std::span<EnvStep> steps, Completion& completion) {
  bool finished;
  if (steps.empty() || (!claim_rows(steps, completion, finished) && finished)) completion.done(0);
}

void RequestBatcher::track_live_envs(int live, bool half_of_live) {
  std::lock_guard lock(mu_);
  tracking_live_ = true;
  half_of_live_ = half_of_live;
  live_envs_ = live;
  retarget_locked();
}

void RequestBatcher::add_live_envs(int delta) {
  std::lock_guard lock(mu_);
  live_envs_ += delta;
  if (tracking_live_) retarget_locked();
}

int RequestBatcher::fill_target() const {
  std::lock_guard lock(mu_);
  return fill_target_;
}

int RequestBatcher::open_rows() const {
  std::lock_guard lock(mu_);
  return open_ ? open_->size : 0;
}

void RequestBatcher::retarget_locked() {
  const int live = std::max(live_envs_, 1);
  fill_target_ = std::clamp(half_of_live_ ? (live + 1) / 2 : live, 1, batch_size_);
  // A batch that already holds enough rows goes now rather than on the timeout.
  if (open_ && open_->size >= fill_target_) {
    seal_locked();
    ready_cv_.notify_one();
  }
}

InferenceBatch* RequestBatcher::next_batch() {
  InferenceBatch* b = nullptr;
  const auto entered = std::chrono::steady_clock::now();
  {
    std::unique_lock lock(mu_);
    for (;;) {
      if (closed_) return nullptr;
      if (ready_count_ > 0) {
        b = ready_[ready_head_];
        ready_head_ = (ready_head_ + 1) % ready_.size();
        --ready_count_;
        b->state = InferenceBatch::State::kRunning;
        break;
      }
      if (open_ && open_->size > 0) {
        const auto deadline = open_->opened + timeout_;
        if (std::chrono::steady_clock::now() >= deadline) {
          timeouts_.fetch_add(1, std::memory_order_relaxed);
          seal_locked();
          continue;
        }
        ready_cv_.wait_until(lock, deadline);
      } else {
        ready_cv_.wait(lock);
      }
    }
  }
  wait_for_rows(b);
  const auto taken = std::chrono::steady_clock::now();
  auto ns = [](auto d) {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
  };
  fill_ns_.fetch_add(ns(taken - b->opened), std::memory_order_relaxed);
  idle_ns_.fetch_add(ns(taken - entered), std::memory_order_relaxed);
  return b;
}

void RequestBatcher::wait_for_rows(InferenceBatch* b) {
  // Rows are claimed under the lock but copied in outside it. A copy is short,
  // so spin briefly; then sleep, since the straggler may be an actor thread
  // preempted mid-copy that needs this CPU to finish.
  const auto size = static_cast<std::uint32_t>(b->size);
  for (int spin = 0; spin < 64; ++spin) {
    if ((b->written.load(std::memory_order_acquire) & ~InferenceBatch::kWaiting) >= size) return;
    cpu_relax();
  }
  futex_sleep_until(b->written, InferenceBatch::kWaiting,
                    [size](std::uint32_t w) { return (w & ~InferenceBatch::kWaiting) >= size; });
}

namespace {
// After every row of `b` is counted off: a new generation, and one wake-up
// for all the actors that sleep on it. Only the thread that answers a batch
// changes its generation; actors only set the sleepers bit.
void announce_answered(InferenceBatch& b) {
  std::uint32_t v = b.answered.load(std::memory_order_relaxed);
  while (!b.answered.compare_exchange_weak(v, (v + 1) & Completion::kGeneration, std::memory_order_acq_rel)) {
  }
  if (v & Completion::kAnswerSleepers) futex_wake_all(b.answered);
}

// Counts `b`'s rows off as closed (their actors stop) and empties it.
void answer_closed(InferenceBatch& b) {
  for (int i = 0; i < b.size; ++i) {
    b.completions[i]->pending.fetch_or(Completion::kClosed, std::memory_order_acq_rel);
    b.completions[i]->count_off();
  }
  announce_answered(b);
  b.size = 0;
}
}  // namespace

void RequestBatcher::answer(InferenceBatch* batch) {
  // close() leaves running batches alone, so no lock is needed to answer.
  for (int i = 0; i < batch->size; ++i) batch->completions[i]->count_off();
  announce_answered(*batch);
}

void RequestBatcher::release(InferenceBatch* batch) {
  {
    std::lock_guard lock(mu_);
    batch->state = InferenceBatch::State::kFree;
    free_.push_back(batch);
  }
  free_cv_.notify_one();
}

void RequestBatcher::abandon(InferenceBatch* batch) {
  answer_closed(*batch);
  release(batch);
}

void RequestBatcher::close() {
  std::lock_guard lock(mu_);
  if (closed_) return;
  closed_ = true;
  // Rows no inference thread will run are counted off (changing the value
  // the actor sleeps on, so no wake-up is lost). Running batches finish and
  // answer their rows through complete().
  for (auto& b : buffers_) {
    if (b->state == InferenceBatch::State::kFilling) answer_closed(*b);
  }
  ready_cv_.notify_all();
  free_cv_.notify_all();
}

}  // namespace seedrl
