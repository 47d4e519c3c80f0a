#include "seedrl/util/torch_runtime.h"

#include <thread>

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <spdlog/spdlog.h>

#include "seedrl/util/heap_tuning.h"

namespace seedrl {

void configure_torch_runtime(int threads, bool uses_cuda) {
  keep_freed_memory_in_heap();
  // Every op then wakes that many threads, which contend with the actors
  // for the cores (1024 on 2 cores: no frame in 10 s).
  if (const unsigned cores = std::thread::hardware_concurrency(); cores > 0 && threads > static_cast<int>(cores))
    spdlog::warn("--torch-threads: {} threads per op on {} hardware threads will mostly wait for each other", threads,
                 cores);
  at::set_num_threads(threads);
  if (!uses_cuda) return;
  auto& ctx = at::globalContext();
  // No cuDNN autotuning: inference batches vary in size (timeout flushes), and
  // each new shape would pay a fresh search (measured: 100x slower forwards).
  ctx.setAllowTF32CuDNN(true);
  ctx.setAllowTF32CuBLAS(true);
}

}  // namespace seedrl
