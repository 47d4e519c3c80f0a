// OpenBLAS's fallback kernels are replaced on a CPU that can run better ones:
// the decision table, and the effect in this very process (seedrl_tests'
// main calls use_native_blas_kernels as the seedrl binary's does).
#include <catch2/catch.hpp>

#include <cstdlib>

#include "seedrl/util/blas_kernels.h"

using namespace seedrl;

TEST_CASE("a fallback OpenBLAS core is replaced by the best the CPU runs", "[util][blas]") {
  const CpuVectorSupport avx512{true, true}, avx2{true, false}, neither{false, false};
  CHECK(better_blas_core("Prescott", avx512) == "SkylakeX");
  CHECK(better_blas_core("Nehalem", avx512) == "SkylakeX");
  CHECK(better_blas_core("Prescott", avx2) == "Haswell");
  CHECK(better_blas_core("Prescott", neither).empty());
  // A core OpenBLAS recognised is its own choice, even a modest one.
  CHECK(better_blas_core("SkylakeX", avx512).empty());
  CHECK(better_blas_core("Haswell", avx512).empty());
  CHECK(better_blas_core("Zen", avx2).empty());
  CHECK(better_blas_core("", avx512).empty());  // not OpenBLAS
}

TEST_CASE("this process runs OpenBLAS's native kernels where the CPU has them", "[util][blas]") {
  const std::string core = openblas_core();
  if (core.empty()) return;                            // LibTorch's BLAS is not OpenBLAS here: nothing to choose
  const char* set = std::getenv("OPENBLAS_CORETYPE");  // by main() or by the user
  INFO("OpenBLAS core " << core << ", OPENBLAS_CORETYPE " << (set ? set : "unset"));
  CHECK(better_blas_core(core, cpu_vector_support()).empty());
}
