#include "seedrl/util/torch_runtime.h"

#include <stdexcept>
#include <string>

#include <ATen/Context.h>
#include <ATen/Parallel.h>

#include "seedrl/util/caching_cpu_allocator.h"
#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/heap_tuning.h"

namespace seedrl {

void configure_torch_runtime(int threads, bool uses_cuda) {
  if (const auto cpus = thread_cpus().size(); cpus > 0 && static_cast<std::size_t>(threads) > cpus)
    throw std::invalid_argument("--torch-threads: " + std::to_string(threads) + " is more than the " +
                                std::to_string(cpus) + " CPU(s) this process may use");
  keep_freed_memory_in_heap();
  install_caching_cpu_allocator();
  at::set_num_threads(threads);
  if (!uses_cuda) return;
  auto& ctx = at::globalContext();
  // No cuDNN autotuning: inference batches vary in size (timeout flushes), and
  // each new shape would pay a fresh search that costs far more than the
  // forward it tunes (bench/RESULTS.md).
  ctx.setAllowTF32CuDNN(true);
  ctx.setAllowTF32CuBLAS(true);
}

}  // namespace seedrl
