// Keeping data-parallel replicas identical: starting them from rank 0's
// weights and optimizer state, and proving at intervals that they still hold
// the same weights (each computes a checksum of its parameters and buffers,
// the ranks all-gather them, and any difference is an error, not a silent
// drift).
#pragma once

#include <cstdint>
#include <vector>

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include "seedrl/learner/replica_group.h"

namespace seedrl {

// Three position-sensitive float64 sums over every parameter and buffer, on
// `device`: identical replicas give bit-identical checksums.
torch::Tensor parameter_checksum(const torch::nn::Module& model, torch::Device device);

// Collective (every rank calls it with its own replica): throws
// std::runtime_error naming the first replica whose checksum differs from
// rank 0's, with both checksums and the update count `step`.
void check_replicas_identical(ReplicaGroup& group, int rank, const torch::nn::Module& model,
                              const std::vector<torch::Device>& devices, std::int64_t step);

// Collective: every rank's parameters and buffers receive rank 0's.
void broadcast_module(ReplicaGroup& group, int rank, torch::nn::Module& model);

// Copies an optimizer's state (moments, step counts) into another replica's
// optimizer over the same parameter layout, moving it to `device`.
void copy_optimizer_state(torch::optim::Optimizer& from, torch::optim::Optimizer& to, torch::Device device);

}  // namespace seedrl
