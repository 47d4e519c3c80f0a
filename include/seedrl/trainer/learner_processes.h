// One training run over several `seedrl train` processes (--world-size > 1):
// each runs its own actors, inference and a V-trace learner replica, and the
// replicas all-reduce their gradients over c10d (learner/replica_group.h).
// Rank 0 writes the run's checkpoint, metrics and report in --logdir; rank
// r > 0 keeps its own log in --logdir/rank-r, seeds its envs apart from the
// others' and, on --resume, loads rank 0's checkpoint (a shared filesystem
// across hosts). Every process counts the whole run's frames and episodes
// (trainer/run_tally.h), and all stop at the same update.
#pragma once

#include "seedrl/learner/replica_group.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

// Checks the learner-process flags and settles what differs by rank (the
// logdir, the seed). Throws std::invalid_argument naming the flag at fault.
void finalize_learner_processes(TrainConfig& config);

// Where this process's `local_replicas` learner replicas meet the others':
// process r's replicas are global ranks r * local_replicas onwards (every
// process has as many learner devices).
Rendezvous learner_rendezvous(const TrainConfig& config, int local_replicas);

}  // namespace seedrl
