// Sum tree over a fixed number of leaf priorities, for R2D2's prioritized
// replay: O(log n) updates and proportional sampling by prefix sum.
#pragma once

#include <cstddef>
#include <vector>

namespace seedrl::r2d2 {

// Not thread-safe: the replay buffer that owns it serializes access.
//
// Every set() recomputes the ancestors of the leaf from their children
// instead of adding a delta, so each internal node is always exactly the
// floating-point sum of its two children and no drift accumulates however many
// updates are made.
class SumTree {
 public:
  // All priorities start at 0. Throws std::invalid_argument if capacity == 0.
  explicit SumTree(std::size_t capacity);

  std::size_t capacity() const { return capacity_; }

  // priority must be finite and >= 0 (std::invalid_argument otherwise);
  // index < capacity (std::out_of_range otherwise).
  void set(std::size_t index, double priority);
  double get(std::size_t index) const;
  double total() const { return nodes_[1]; }

  // The leaf i with sum(p[0..i)) <= u < sum(p[0..i]), for u in [0, total()).
  // Never returns a zero-priority leaf: u outside [0, total()) (e.g. rounding
  // in the caller's u = uniform * total) is clamped to the first/last leaf
  // with positive priority. Throws std::logic_error if total() == 0.
  std::size_t find_prefix_sum(double u) const;

 private:
  std::size_t capacity_;
  std::size_t leaves_;         // capacity rounded up to a power of two
  std::vector<double> nodes_;  // heap layout: root at 1, leaf i at leaves_ + i
};

}  // namespace seedrl::r2d2
