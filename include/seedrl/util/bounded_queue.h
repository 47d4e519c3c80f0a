// A blocking FIFO with a fixed capacity and a close() that wakes every waiter.
// Used for unrolls between inference and learner (back-pressure), and for the
// free lists of preallocated buffers. Capacity is reserved up front, so push
// and pop never allocate.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace seedrl {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : ring_(capacity) {}
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  // Blocks while full. Returns false (dropping nothing) once closed.
  bool push(T value) {
    std::unique_lock lock(mu_);
    not_full_.wait(lock, [&] { return closed_ || size_ < ring_.size(); });
    if (closed_) return false;
    ring_[(head_ + size_) % ring_.size()] = std::move(value);
    ++size_;
    const bool batch_ready = batch_want_ > 0 && size_ >= batch_want_;
    lock.unlock();
    not_empty_.notify_one();
    if (batch_ready) batch_ready_.notify_one();
    return true;
  }

  // Blocks while empty. Returns nullopt once closed (even if items remain:
  // closing means shutting down, and the owner reclaims what is left).
  std::optional<T> pop() {
    std::unique_lock lock(mu_);
    not_empty_.wait(lock, [&] { return closed_ || size_ > 0; });
    if (closed_) return std::nullopt;
    return take(lock);
  }

  // Like pop() but gives up after `timeout`; nullopt on timeout or close.
  template <typename Duration>
  std::optional<T> pop_for(Duration timeout) {
    std::unique_lock lock(mu_);
    if (!not_empty_.wait_for(lock, timeout, [&] { return closed_ || size_ > 0; }) || closed_) return std::nullopt;
    return take(lock);
  }

  // Takes `n` items into out[0, n), in order, blocking until they have been
  // pushed. The caller wakes once `n` are queued (or the queue is full), not
  // on every push, so a consumer of whole batches costs the producers no
  // wake-up per item. One pop_n caller at a time. Returns how many it took:
  // n, or fewer (the caller owns them) once closed or once `cancel` is set,
  // which is checked every 20 ms.
  std::size_t pop_n(T* out, std::size_t n, const std::atomic<bool>* cancel = nullptr) {
    std::unique_lock lock(mu_);
    std::size_t got = 0;
    const auto cancelled = [cancel] { return cancel != nullptr && cancel->load(std::memory_order_relaxed); };
    while (got < n) {
      batch_want_ = std::min(n - got, ring_.size());
      const auto ready = [&] { return closed_ || size_ >= batch_want_ || cancelled(); };
      if (cancel == nullptr) {
        batch_ready_.wait(lock, ready);
      } else {
        while (!ready()) batch_ready_.wait_for(lock, std::chrono::milliseconds(20));
      }
      if (closed_ || cancelled()) break;
      for (; got < n && size_ > 0; --size_, head_ = (head_ + 1) % ring_.size()) out[got++] = std::move(ring_[head_]);
      not_full_.notify_all();
    }
    batch_want_ = 0;
    return got;
  }

  std::optional<T> try_pop() {
    std::unique_lock lock(mu_);
    if (closed_ || size_ == 0) return std::nullopt;
    return take(lock);
  }

  void close() {
    {
      std::lock_guard lock(mu_);
      closed_ = true;
    }
    not_full_.notify_all();
    not_empty_.notify_all();
    batch_ready_.notify_all();
  }

  // Drains remaining items after close (for reclaiming buffers).
  std::vector<T> drain() {
    std::lock_guard lock(mu_);
    std::vector<T> out;
    for (; size_ > 0; --size_, head_ = (head_ + 1) % ring_.size()) out.push_back(std::move(ring_[head_]));
    return out;
  }

  std::size_t size() const {
    std::lock_guard lock(mu_);
    return size_;
  }
  std::size_t capacity() const { return ring_.size(); }
  bool closed() const {
    std::lock_guard lock(mu_);
    return closed_;
  }

 private:
  T take(std::unique_lock<std::mutex>& lock) {
    T value = std::move(ring_[head_]);
    head_ = (head_ + 1) % ring_.size();
    --size_;
    lock.unlock();
    not_full_.notify_one();
    return value;
  }

  mutable std::mutex mu_;
  std::condition_variable not_full_, not_empty_, batch_ready_;
  std::vector<T> ring_;
  std::size_t head_ = 0, size_ = 0;
  std::size_t batch_want_ = 0;  // what a waiting pop_n needs queued; 0: none waits
  bool closed_ = false;
};

}  // namespace seedrl
