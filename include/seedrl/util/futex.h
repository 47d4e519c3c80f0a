// Sleep and wake on a 32-bit atomic: the bare futex calls, with no spinning
// of their own (std::atomic::wait adds a fixed spin, and its notify consults
// a process-wide table of waiter counts). Callers choose their own spin and
// keep their own "someone sleeps here" bit, so a wake-up costs a system call
// only when a thread really sleeps.
#pragma once

#include <atomic>
#include <cstdint>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace seedrl {

// A spin-wait hint to the CPU (lets the sibling hyper-thread run).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Sleeps while `word` holds `expected` (returns at once if it does not;
// spurious returns are possible, so call it in a loop).
inline void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) {
#ifdef __linux__
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
#else
  word.wait(expected, std::memory_order_acquire);
#endif
}

// Wakes one thread sleeping in futex_wait on `word` (the kernel stops
// searching its hash chain at the first match; waking all walks the chain).
inline void futex_wake_one(std::atomic<std::uint32_t>& word) {
#ifdef __linux__
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
#else
  word.notify_one();
#endif
}

// Wakes every thread sleeping in futex_wait on `word`, in one system call.
inline void futex_wake_all(std::atomic<std::uint32_t>& word) {
#ifdef __linux__
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, 0x7fffffff, nullptr, nullptr, 0);
#else
  word.notify_all();
#endif
}

// Sleeps until `done(value of word)` holds. Before each sleep it sets
// `sleeping_bit` in `word`, which tells the writer to call futex_wake_one.
// Returns the value that satisfied `done`.
template <typename Done>
std::uint32_t futex_sleep_until(std::atomic<std::uint32_t>& word, std::uint32_t sleeping_bit, Done done) {
  for (;;) {
    std::uint32_t v = word.load(std::memory_order_acquire);
    if (done(v)) return v;
    if (!(v & sleeping_bit)) {
      if (!word.compare_exchange_weak(v, v | sleeping_bit, std::memory_order_acq_rel)) continue;
      v |= sleeping_bit;
    }
    futex_wait(word, v);
  }
}

}  // namespace seedrl
