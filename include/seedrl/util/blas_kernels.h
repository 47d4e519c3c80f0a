// OpenBLAS picks its kernels once, when it loads, from the CPU's model
// number. Debian 12's OpenBLAS (0.3.21) does not know some newer CPUs (e.g.
// an AMX-capable Xeon VM that calls itself "Intel Xeon Processor") and falls
// back to its "Prescott" kernels, SSE3 from 2004: several times slower for
// every fully connected layer the CPU learner runs (bench/RESULTS.md). The
// only way to choose is the OPENBLAS_CORETYPE variable, read at load time, so
// a process that finds the fallback on a CPU with AVX2 or AVX-512 sets it and
// executes itself again, once. A user's own OPENBLAS_CORETYPE is left alone.
#pragma once

#include <string>

namespace seedrl {

struct CpuVectorSupport {
  bool avx2_fma = false;
  bool avx512 = false;  // F, BW, VL and DQ: OpenBLAS's SkylakeX kernels
  bool bf16 = false;    // AVX512-BF16 or AMX-BF16: bfloat16 dot products in hardware (--precision bf16)
  // bfloat16 matrix products outrun float32's (--precision auto): AMX-BF16,
  // or AVX512-BF16 on a core that is not Intel's. An Intel core issues
  // AVX512-BF16's dot product on one port and float32 FMAs on two, the same
  // multiply-adds per cycle, so there bfloat16 only adds its conversions
  // (e.g. a VM that hides the host's AMX; bench/RESULTS.md).
  bool bf16_faster = false;
};

CpuVectorSupport cpu_vector_support();

// The OPENBLAS_CORETYPE worth setting when OpenBLAS chose `detected`
// ("SkylakeX", "Haswell"), or "" to keep its choice.
std::string better_blas_core(const std::string& detected, const CpuVectorSupport& cpu);

// A one-line warning when the user's OPENBLAS_CORETYPE (`chosen`) holds
// OpenBLAS below what this CPU runs (AVX2 kernels on an AVX-512 CPU, pre-AVX2
// ones on an AVX2 CPU), naming the better core; "" when it does not. Such a
// setting is left alone (it may be deliberate), but on a CPU learner it costs
// every fully connected layer (bench/RESULTS.md: SAC's update).
std::string blas_core_warning(const std::string& chosen, const CpuVectorSupport& cpu);

// A one-line error when the user's OPENBLAS_CORETYPE (`chosen`) names
// kernels this CPU cannot run (AVX-512 ones without AVX-512, AVX2 ones
// without AVX2), naming the core to set instead; "" when it can run them.
// OpenBLAS takes the setting as it is, and the first matrix product dies of
// an illegal instruction.
std::string blas_core_error(const std::string& chosen, const CpuVectorSupport& cpu);
// blas_core_error() for this process's OPENBLAS_CORETYPE on this CPU ("" when unset).
std::string blas_core_setting_error();

// The kernels the loaded OpenBLAS uses, or "" when LibTorch's BLAS is not OpenBLAS.
std::string openblas_core();

// "OpenBLAS, SkylakeX kernels (OPENBLAS_CORETYPE=SkylakeX)", for the run's log.
std::string describe_blas();

// At the top of main(), before any thread exists: re-executes this program
// with OPENBLAS_CORETYPE set when better_blas_core() names a core. Returns
// (doing nothing) otherwise, or when the re-execution fails.
void use_native_blas_kernels(char** argv);

}  // namespace seedrl
