// Keeps each slot's steps in order when inference answers a batch's actors
// before it records the batch (so the actors step their envs while the
// inference thread copies the batch into the trajectory store).
//
// A slot has at most one step in flight: its actor submits the next only once
// answered. But with several inference threads, the next step can reach
// another thread and be recorded before the thread that answered the previous
// one has recorded it. So the thread that answers a slot's step takes a ticket
// first (the answer orders that before the slot's next step is taken), waits
// for its turn before recording, and passes the turn on after it. Waits spin
// briefly and then sleep on a futex: the turn's holder may be blocked on a
// full trajectory queue for as long as the learner takes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace seedrl {

class RecordTurns {
 public:
  explicit RecordTurns(int num_slots);

  // The answering thread, before it answers the step's actor.
  std::uint32_t take_ticket(int slot) { return taken_[slot].fetch_add(1, std::memory_order_relaxed) & kCount; }
  // Before recording the step that drew `ticket`: until every earlier step of
  // the slot is recorded, or abandon() was called.
  void wait_turn(int slot, std::uint32_t ticket);
  // After recording it (or deciding not to): the slot's next step may go.
  void pass_turn(int slot);
  // Until every step the slot was answered for is recorded (or abandoned):
  // before the slot's partial unroll is dropped, its actor gone.
  void wait_settled(int slot);
  // A thread that answered steps will not record them (it failed): every wait,
  // now and later, returns at once.
  void abandon();

 private:
  static constexpr std::uint32_t kSleepers = 0x80000000u;
  static constexpr std::uint32_t kAbandoned = 0x40000000u;
  static constexpr std::uint32_t kCount = 0x3FFFFFFFu;  // steps recorded, modulo 2^30

  int num_slots_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> taken_;
  // Steps recorded, plus kSleepers while a thread sleeps on it and kAbandoned.
  std::unique_ptr<std::atomic<std::uint32_t>[]> recorded_;
};

}  // namespace seedrl
