#include "seedrl/util/futex_hash.h"

#include <bit>

#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace seedrl {

namespace {
// From <linux/prctl.h> of Linux 6.16+, absent from older headers.
constexpr int kPrFutexHash = 78;
constexpr int kSetSlots = 1;
constexpr int kGetSlots = 2;
}  // namespace

void reserve_futex_hash(int sleeping_threads) {
#ifdef __linux__
  if (sleeping_threads < 64) return;  // the automatic size does
  const unsigned long wanted = std::bit_ceil(static_cast<unsigned long>(sleeping_threads) * 2);
  const int current = prctl(kPrFutexHash, kGetSlots, 0, 0, 0);
  if (current < 0) return;  // no private hashes here: the global one is used
  if (static_cast<unsigned long>(current) >= wanted) return;
  prctl(kPrFutexHash, kSetSlots, wanted, 0, 0);
#else
  (void)sleeping_threads;
#endif
}

}  // namespace seedrl
