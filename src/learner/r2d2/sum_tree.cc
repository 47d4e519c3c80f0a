#include "seedrl/learner/r2d2/sum_tree.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace seedrl::r2d2 {

SumTree::SumTree(std::size_t capacity) : capacity_(capacity), leaves_(1) {
  if (capacity == 0) throw std::invalid_argument("SumTree: capacity must be positive");
  while (leaves_ < capacity) leaves_ *= 2;
  nodes_.assign(2 * leaves_, 0.0);  // padding leaves stay 0 forever
}

void SumTree::set(std::size_t index, double priority) {
  if (index >= capacity_) {
    throw std::out_of_range("SumTree::set: index " + std::to_string(index) + " >= capacity " +
                            std::to_string(capacity_));
  }
  if (!(priority >= 0.0) || !std::isfinite(priority)) {
    throw std::invalid_argument("SumTree::set: priority must be finite and >= 0, got " + std::to_string(priority));
  }
  std::size_t node = leaves_ + index;
  nodes_[node] = priority;
  for (node /= 2; node >= 1; node /= 2) nodes_[node] = nodes_[2 * node] + nodes_[2 * node + 1];
}

double SumTree::get(std::size_t index) const {
  if (index >= capacity_) {
    throw std::out_of_range("SumTree::get: index " + std::to_string(index) + " >= capacity " +
                            std::to_string(capacity_));
  }
  return nodes_[leaves_ + index];
}

std::size_t SumTree::find_prefix_sum(double u) const {
  if (!(total() > 0.0)) throw std::logic_error("SumTree::find_prefix_sum: total priority is 0");
  if (!(u >= 0.0)) u = 0.0;  // also maps NaN to the first positive leaf
  // Invariant: nodes_[node] > 0. Descend left when u falls inside the left sum
  // or the right subtree is empty; otherwise subtract the left sum. Because the
  // rounded parent sum can exceed left + right, u may still reach the right
  // edge of a subtree; the empty-right check keeps the walk on positive leaves.
  std::size_t node = 1;
  while (node < leaves_) {
    const double left = nodes_[2 * node];
    if (u < left || nodes_[2 * node + 1] <= 0.0) {
      node = 2 * node;
    } else {
      u -= left;
      node = 2 * node + 1;
    }
  }
  return node - leaves_;
}

}  // namespace seedrl::r2d2
