// Settings of a data-parallel learner (V-trace's or R2D2's).
#pragma once

#include <chrono>
#include <cstdint>

namespace seedrl {

struct DataParallelOptions {
  int checksum_every = 100;                   // updates between replica checksums (0: never)
  std::int64_t bucket_bytes = 1 << 20;        // gradient bucket size
  std::chrono::milliseconds timeout{120000};  // a collective that takes longer fails the run
  bool prefetch = true;                       // gather the next batch during the update (V-trace)
};

}  // namespace seedrl
