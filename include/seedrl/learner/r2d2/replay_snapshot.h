// R2D2's replay on disk, so that a resumed run keeps its sequences and their
// priorities instead of refilling --min-replay sequences from scratch.
//
// The file: a header (magic, byte-order mark, format version, the geometry of
// a sequence, the capacity, the ring's cursor and counters, and the learner
// step of the checkpoint saved with it) and its CRC32C, then the held
// sequences as Replay records (replay.h) and their CRC32C. Numbers are in the
// machine's byte order; the mark refuses a file of the other order.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "seedrl/learner/r2d2/replay.h"

namespace seedrl::r2d2 {

// One line naming the file and what is wrong with it.
class ReplaySnapshotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReplaySnapshotInfo {
  std::int64_t sequences = 0;
  std::int64_t learner_steps = 0;  // of the checkpoint saved with it
  std::uint64_t bytes = 0;         // of the file
};

// Writes `replay` to `path` atomically: `path`.tmp, fsync, rename, fsync of
// the directory. A failed write (a full disk) removes the .tmp and leaves the
// previous file as it was. Other threads may go on inserting: the cursor is
// taken first and records are copied under the replay's lock a chunk at a
// time, so an insert waits for one chunk at most.
ReplaySnapshotInfo save_replay_snapshot(const Replay& replay, const std::string& path, std::int64_t learner_steps);

// The header alone, checked against `replay`'s geometry and capacity.
ReplaySnapshotInfo read_replay_snapshot_info(const std::string& path, const Replay& replay);

// Restores `replay`, which must be empty and used by no other thread yet:
// sequences, priorities (the sum tree is rebuilt with this run's priority
// exponent) and counters. The file is untrusted: everything is checked, and
// on any error the replay stays empty.
ReplaySnapshotInfo load_replay_snapshot(Replay& replay, const std::string& path);

}  // namespace seedrl::r2d2
