#include "seedrl/util/torch_runtime.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>

#include "seedrl/util/heap_tuning.h"

namespace seedrl {

void configure_torch_runtime(int threads, bool uses_cuda) {
  keep_freed_memory_in_heap();
  at::set_num_threads(threads);
  if (!uses_cuda) return;
  auto& ctx = at::globalContext();
  // No cuDNN autotuning: inference batches vary in size (timeout flushes), and
  // each new shape would pay a fresh search (measured: 100x slower forwards).
  ctx.setAllowTF32CuDNN(true);
  ctx.setAllowTF32CuBLAS(true);
}

}  // namespace seedrl
