#include "seedrl/inference/request_batcher.h"

#include <cstring>
#include <thread>

#include <torch/torch.h>

namespace seedrl {

namespace {
torch::Dtype to_torch(DType d) { return d == DType::kUInt8 ? torch::kUInt8 : torch::kFloat32; }
}  // namespace

RequestBatcher::RequestBatcher(const ArraySpec& observation, int batch_size,
                               std::chrono::microseconds timeout, int num_buffers, bool pin_memory)
    : batch_size_(batch_size), timeout_(timeout) {
  std::vector<std::int64_t> shape{batch_size};
  shape.insert(shape.end(), observation.shape.begin(), observation.shape.end());
  auto opts = torch::TensorOptions().pinned_memory(pin_memory);
  for (int i = 0; i < num_buffers; ++i) {
    auto b = std::make_unique<InferenceBatch>();
    b->obs = torch::empty(shape, opts.dtype(to_torch(observation.dtype)));
    b->first = torch::zeros({batch_size}, opts.dtype(torch::kUInt8));
    b->slots = torch::zeros({batch_size}, opts.dtype(torch::kInt64));
    b->steps.resize(batch_size);
    b->completions.resize(batch_size);
    b->obs_ptr = static_cast<std::uint8_t*>(b->obs.data_ptr());
    b->row_bytes = observation.bytes();
    free_.push_back(b.get());
    buffers_.push_back(std::move(b));
  }
}

RequestBatcher::~RequestBatcher() { close(); }

InferenceBatch* RequestBatcher::open_batch_locked(std::unique_lock<std::mutex>& lock) {
  if (open_) return open_;
  free_cv_.wait(lock, [&] { return closed_ || !free_.empty() || open_; });
  if (closed_) return nullptr;
  if (open_) return open_;  // another actor opened one while we waited
  open_ = free_.back();
  free_.pop_back();
  open_->size = 0;
  open_->awaiting = true;
  open_->written.store(0, std::memory_order_relaxed);
  return open_;
}

void RequestBatcher::seal_locked() {
  rows_.fetch_add(open_->size, std::memory_order_relaxed);
  batches_.fetch_add(1, std::memory_order_relaxed);
  ready_.push_back(open_);
  open_ = nullptr;
}

bool RequestBatcher::submit(std::span<EnvStep> steps, Completion& completion) {
  completion.pending.store(static_cast<std::uint32_t>(steps.size()), std::memory_order_relaxed);
  for (EnvStep& step : steps) {
    InferenceBatch* b;
    int row;
    {
      std::unique_lock lock(mu_);
      b = open_batch_locked(lock);
      if (!b) return false;
      row = b->size++;
      b->steps[row] = &step;
      b->completions[row] = &completion;
      b->slots.data_ptr<std::int64_t>()[row] = step.slot;
      b->first.data_ptr<std::uint8_t>()[row] = (step.flags & kFirst) ? 1 : 0;
      if (row == 0) b->opened = std::chrono::steady_clock::now();
      if (b->size == batch_size_) seal_locked();
      if (row == 0 || b->size == batch_size_) ready_cv_.notify_one();
    }
    std::memcpy(b->obs_ptr + row * b->row_bytes, step.obs, b->row_bytes);
    b->written.fetch_add(1, std::memory_order_release);
  }
  for (;;) {
    std::uint32_t p = completion.pending.load(std::memory_order_acquire);
    if (p == 0) return true;
    if (p & Completion::kClosed) return false;
    completion.pending.wait(p, std::memory_order_acquire);
  }
}

InferenceBatch* RequestBatcher::next_batch() {
  InferenceBatch* b = nullptr;
  {
    std::unique_lock lock(mu_);
    for (;;) {
      if (closed_) return nullptr;
      if (!ready_.empty()) {
        b = ready_.front();
        ready_.pop_front();
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
  // Rows are claimed under the lock but filled outside it; the copies are
  // short, so wait for the stragglers by yielding.
  while (b->written.load(std::memory_order_acquire) < b->size) std::this_thread::yield();
  return b;
}

void RequestBatcher::complete(InferenceBatch* batch) {
  {
    // From here on close() leaves this batch alone: its actors are woken
    // below, and may be gone (with their Completion) right after.
    std::lock_guard lock(mu_);
    batch->awaiting = false;
  }
  for (int i = 0; i < batch->size; ++i) {
    Completion* c = batch->completions[i];
    if (c->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) c->pending.notify_one();
  }
  {
    std::lock_guard lock(mu_);
    free_.push_back(batch);
  }
  free_cv_.notify_one();
}

void RequestBatcher::close() {
  std::lock_guard lock(mu_);
  if (closed_) return;
  closed_ = true;
  // Every waiting actor has a row in some not-yet-completed buffer. Changing
  // the value it sleeps on (not just notifying) rules out a lost wake-up.
  for (auto& b : buffers_)
    for (int i = 0; b->awaiting && i < b->size; ++i)
      if (Completion* c = b->completions[i]) {
        c->pending.fetch_or(Completion::kClosed, std::memory_order_acq_rel);
        c->pending.notify_all();
      }
  ready_cv_.notify_all();
  free_cv_.notify_all();
}

}  // namespace seedrl
