#include "seedrl/util/cuda_rng_lock.h"

namespace seedrl {

namespace {
std::shared_mutex& rng_mutex() {
  static std::shared_mutex m;
  return m;
}
}  // namespace

std::shared_lock<std::shared_mutex> lock_cuda_rng(const torch::Tensor& like) {
  if (!like.is_cuda()) return {};
  return std::shared_lock<std::shared_mutex>(rng_mutex());
}

std::unique_lock<std::shared_mutex> lock_cuda_rng_for_capture() {
  return std::unique_lock<std::shared_mutex>(rng_mutex());
}

}  // namespace seedrl
