// seedrl_bench's main, and the operator new that counts allocations.
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include <benchmark/benchmark.h>

#include "alloc_counter.h"
#include "seedrl/util/blas_kernels.h"

namespace {
// Per thread, so a benchmark counts only the thread it measures.
thread_local std::uint64_t t_allocations = 0;
}  // namespace

std::uint64_t seedrl::bench::allocations_this_thread() { return t_allocations; }

void* operator new(std::size_t size) {
  ++t_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
  seedrl::use_native_blas_kernels(argv);  // the kernels seedrl itself runs with
  if (const std::string error = seedrl::blas_core_setting_error(); !error.empty()) {
    std::fprintf(stderr, "seedrl_bench: error: %s\n", error.c_str());
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
