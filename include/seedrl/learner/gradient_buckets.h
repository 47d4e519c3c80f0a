// Gradient all-reduce for one data-parallel replica, bucketed the way
// PyTorch's DDP does it: parameters are grouped, in reverse registration
// order (roughly the order backward produces their gradients), into flat
// buckets of about `bucket_bytes`; a hook on each parameter copies its
// gradient into its bucket as autograd produces it, and a full bucket's
// all-reduce starts right away, so communication overlaps the rest of
// backward. Buckets start strictly in index order on every rank, which keeps
// the ranks' collectives matched. finish() waits and writes the summed
// gradients back into .grad.
#pragma once

#include <cstdint>
#include <vector>

#include <torch/types.h>

#include "seedrl/learner/replica_group.h"

namespace seedrl {

class GradientBuckets {
 public:
  GradientBuckets(ReplicaGroup& group, int rank, std::vector<torch::Tensor> params, std::int64_t bucket_bytes);
  ~GradientBuckets();  // removes the hooks
  GradientBuckets(const GradientBuckets&) = delete;
  GradientBuckets& operator=(const GradientBuckets&) = delete;

  // Call before backward: arms the hooks for one step.
  void prepare();
  // Call after backward: starts any bucket not yet started (a parameter that
  // got no gradient contributes zeros), waits for all, and sets every
  // parameter's .grad to the sum over ranks.
  void finish();

  int buckets() const { return static_cast<int>(buckets_.size()); }
  // Buckets whose all-reduce started from inside backward in the last step.
  int started_during_backward() const { return started_in_backward_; }

 private:
  struct Bucket {
    torch::Tensor flat;
    std::vector<int> params;  // indices into params_
    int pending = 0;
    bool started = false;
    ReplicaGroup::Wait wait;
  };
  struct Slot {
    int bucket = 0;
    std::int64_t offset = 0;
    bool ready = false;
  };
  void on_grad(int param, const torch::Tensor& grad);
  void start_ready_buckets();

  ReplicaGroup& group_;
  int rank_;
  std::vector<torch::Tensor> params_;
  std::vector<Slot> slots_;
  std::vector<unsigned> hooks_;
  std::vector<Bucket> buckets_;
  int next_start_ = 0;
  bool armed_ = false;
  int started_in_backward_ = 0;
};

}  // namespace seedrl
