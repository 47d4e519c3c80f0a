// OpenBLAS's fallback kernels are replaced on a CPU that can run better ones:
// the decision table, and the effect on a training run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "../cli/run_binary.h"
#include "cpuinfo_flags.h"
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

TEST_CASE("an OPENBLAS_CORETYPE below the CPU's vectors is named in a warning, a matching one is not", "[util][blas]") {
  const CpuVectorSupport avx512{true, true}, avx2{true, false}, neither{false, false};
  CHECK_THAT(blas_core_warning("Haswell", avx512),
             Catch::Contains("OPENBLAS_CORETYPE=Haswell") && Catch::Contains("SkylakeX"));
  CHECK_THAT(blas_core_warning("Prescott", avx512), Catch::Contains("SkylakeX"));
  CHECK_THAT(blas_core_warning("Sandybridge", avx2), Catch::Contains("Haswell"));
  CHECK(blas_core_warning("SkylakeX", avx512).empty());
  CHECK(blas_core_warning("Cooperlake", avx512).empty());
  CHECK(blas_core_warning("Haswell", avx2).empty());
  CHECK(blas_core_warning("Zen", avx2).empty());
  CHECK(blas_core_warning("Prescott", neither).empty());  // nothing better to run
  CHECK(blas_core_warning("", avx512).empty());
}

TEST_CASE("bfloat16 instructions are detected as /proc/cpuinfo lists them", "[util][blas]") {
  using seedrl::test::cpuinfo_has;
  const std::string flags = seedrl::test::cpuinfo_flags();
  if (flags.empty()) return;  // no /proc/cpuinfo (not Linux x86): nothing to compare with
  const bool listed = cpuinfo_has(flags, "avx512_bf16") || cpuinfo_has(flags, "amx_bf16");
  INFO(flags);
  CHECK(cpu_vector_support().bf16 == listed);
  CHECK(cpu_vector_support().bf16_faster == seedrl::test::cpuinfo_bf16_faster());
  CHECK(cpu_vector_support().avx512 == (cpuinfo_has(flags, "avx512f") && cpuinfo_has(flags, "avx512bw") &&
                                        cpuinfo_has(flags, "avx512vl") && cpuinfo_has(flags, "avx512dq")));
}

TEST_CASE("a training run uses OpenBLAS's native kernels where the CPU has them", "[util][blas][cli]") {
  // This test process keeps what OpenBLAS chose at load time; seedrl itself
  // re-executes with a better choice when there is one.
  const std::string here = openblas_core();
  if (here.empty()) return;  // LibTorch's BLAS is not OpenBLAS here: nothing to choose
  std::string expected = better_blas_core(here, cpu_vector_support());
  if (expected.empty() || std::getenv("OPENBLAS_CORETYPE")) expected = here;
  const std::string dir = seedrl::test::temp_dir("blas_kernels");
  const seedrl::test::RunResult r =
      seedrl::test::run_seedrl({"train", "--env", "cartpole", "--max-frames", "2000", "--actors", "1", "--logdir", dir,
                                "--report-every-s", "0"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("blas: OpenBLAS, " + expected + " kernels"));
}

TEST_CASE("an OPENBLAS_CORETYPE naming kernels the CPU cannot run is refused in one line", "[util][blas][cli]") {
  const CpuVectorSupport avx512{true, true}, avx2{true, false}, neither{false, false};
  CHECK_THAT(blas_core_error("SkylakeX", avx2),
             Catch::Contains("OPENBLAS_CORETYPE=SkylakeX") && Catch::Contains("AVX-512") && Catch::Contains("Haswell"));
  CHECK_THAT(blas_core_error("SapphireRapids", avx2), Catch::Contains("AVX-512"));
  CHECK_THAT(blas_core_error("Haswell", neither), Catch::Contains("AVX2") && !Catch::Contains("set Haswell"));
  CHECK_THAT(blas_core_error("SkylakeX", neither), Catch::Contains("AVX-512"));
  CHECK(blas_core_error("SkylakeX", avx512).empty());
  CHECK(blas_core_error("Haswell", avx512).empty());
  CHECK(blas_core_error("Zen", avx2).empty());
  CHECK(blas_core_error("Prescott", neither).empty());
  CHECK(blas_core_error("", neither).empty());

  // On this CPU: a core it cannot run is refused before any matrix product
  // (where OpenBLAS would die of SIGILL). An AVX-512 CPU runs every x86 core
  // OpenBLAS has, so there is nothing to refuse there.
  const CpuVectorSupport here = cpu_vector_support();
  const char* beyond = !here.avx512 ? "SkylakeX" : nullptr;
  if (!beyond) return;
  const char* before = std::getenv("OPENBLAS_CORETYPE");
  const std::string saved = before ? before : "";
  setenv("OPENBLAS_CORETYPE", beyond, 1);
  const std::string dir = seedrl::test::temp_dir("blas_refused");
  const seedrl::test::RunResult r = seedrl::test::run_seedrl(
      {"train", "--env", "cartpole", "--max-frames", "2000", "--logdir", dir, "--report-every-s", "0"});
  if (before)
    setenv("OPENBLAS_CORETYPE", saved.c_str(), 1);
  else
    unsetenv("OPENBLAS_CORETYPE");
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::StartsWith("seedrl: error: OPENBLAS_CORETYPE=SkylakeX") && Catch::Contains("AVX-512"));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}
