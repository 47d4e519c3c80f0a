#include "seedrl/util/bf16_faster.h"

#include "seedrl/util/blas_kernels.h"

// The GPU's compute capability is asked only of a CUDA LibTorch whose CUDA
// headers are on the include path (as util/cuda_graphs.cc); without them a
// GPU counts as not faster, which keeps --precision auto at float32.
#if defined(SEEDRL_WITH_CUDA) && __has_include(<ATen/cuda/CUDAContext.h>) && __has_include(<cuda_runtime_api.h>)
#define SEEDRL_HAVE_CUDA_PROPERTIES 1
#include <ATen/cuda/CUDAContext.h>
#endif

namespace seedrl {

bool bf16_faster(const torch::Device& device) {
  if (device.is_cpu()) return cpu_vector_support().bf16_faster;
#ifdef SEEDRL_HAVE_CUDA_PROPERTIES
  if (device.is_cuda()) return at::cuda::getDeviceProperties(device.has_index() ? device.index() : 0)->major >= 8;
#endif
  return false;
}

}  // namespace seedrl
