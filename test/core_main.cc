// seedrl_tests' main: OpenBLAS's native kernels first (util/blas_kernels.h),
// as the seedrl binary does, so the learner tests run at the machine's speed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "seedrl/util/blas_kernels.h"

int main(int argc, char** argv) {
  seedrl::use_native_blas_kernels(argv);
  return Catch::Session().run(argc, argv);
}
