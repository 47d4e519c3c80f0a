// Scheduling of actor threads. Thousands of actor threads each do a little
// work per wake-up; the inference and learner threads do most of the work in
// a few threads. Under Linux's fair scheduler every woken actor would preempt
// a busy inference or learner thread (a sleeper has the smaller virtual
// runtime), so with thousands of actors on a few cores the threads that bound
// throughput get a vanishing share of the CPU.
#pragma once

namespace seedrl {

// Marks the calling thread as an actor thread: SCHED_BATCH (its wake-ups do
// not preempt running threads) at a lower priority (nice + `nice_increment`,
// which needs no privilege); nothing for `nice_increment` <= 0. Best effort:
// a refusal leaves the thread as it was.
void lower_actor_thread_priority(int nice_increment);

}  // namespace seedrl
