// Since Linux 6.16 a process's private futexes hash into a table of its own,
// sized automatically from min(threads, CPUs): 16 slots on a 2-core machine.
// Thousands of actor threads asleep in it make every wake-up walk a chain of
// hundreds of waiters, and futex_wake took a large share of all CPU time
// (bench/RESULTS.md). Before starting many sleeping threads, ask for a table
// that scales with them.
#pragma once

namespace seedrl {

// Grows this process's private futex hash to at least ~2 slots per thread for
// `sleeping_threads` (never shrinks it). Best effort: kernels without
// PR_FUTEX_HASH keep their global hash, which is sized by CPUs and memory.
void reserve_futex_hash(int sleeping_threads);

}  // namespace seedrl
