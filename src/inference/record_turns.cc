#include "seedrl/inference/record_turns.h"

#include "seedrl/util/futex.h"

namespace seedrl {

RecordTurns::RecordTurns(int num_slots)
    : num_slots_(num_slots),
      taken_(new std::atomic<std::uint32_t>[static_cast<std::size_t>(num_slots)]),
      recorded_(new std::atomic<std::uint32_t>[static_cast<std::size_t>(num_slots)]) {
  for (int s = 0; s < num_slots; ++s) {
    taken_[s].store(0, std::memory_order_relaxed);
    recorded_[s].store(0, std::memory_order_relaxed);
  }
}

void RecordTurns::wait_turn(int slot, std::uint32_t ticket) {
  auto& word = recorded_[slot];
  auto done = [ticket](std::uint32_t v) { return (v & kAbandoned) || (v & kCount) == ticket; };
  // Usually the turn is already here; else its holder is mid-copy, or
  // blocked on the learner (then sleep rather than take its CPU).
  for (int spin = 0; spin < 64; ++spin) {
    if (done(word.load(std::memory_order_acquire))) return;
    cpu_relax();
  }
  futex_sleep_until(word, kSleepers, done);
}

void RecordTurns::pass_turn(int slot) {
  auto& word = recorded_[slot];
  std::uint32_t v = word.load(std::memory_order_relaxed);
  // The count wraps within its bits; the sleepers' bit is cleared, as they
  // are all woken.
  while (!word.compare_exchange_weak(v, (v & kAbandoned) | ((v + 1) & kCount), std::memory_order_acq_rel)) {
  }
  if (v & kSleepers) futex_wake_all(word);
}

void RecordTurns::wait_settled(int slot) {
  // The caller was answered for the slot's last step, which ordered its
  // ticket before this read.
  const std::uint32_t taken = taken_[slot].load(std::memory_order_relaxed) & kCount;
  wait_turn(slot, taken);
}

void RecordTurns::abandon() {
  for (int s = 0; s < num_slots_; ++s) {
    const std::uint32_t v = recorded_[s].fetch_or(kAbandoned, std::memory_order_acq_rel);
    if (v & kSleepers) futex_wake_all(recorded_[s]);
  }
}

}  // namespace seedrl
