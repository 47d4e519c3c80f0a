#include "seedrl/util/blas_kernels.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace seedrl {

CpuVectorSupport cpu_vector_support() {
  __builtin_cpu_init();
  CpuVectorSupport cpu;
  cpu.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  cpu.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  const bool amx = __builtin_cpu_supports("amx-bf16");
  const bool avx512_bf16 = __builtin_cpu_supports("avx512bf16");
  cpu.bf16 = avx512_bf16 || amx;
  cpu.bf16_faster = amx || (avx512_bf16 && !__builtin_cpu_is("intel"));
  return cpu;
}

std::string better_blas_core(const std::string& detected, const CpuVectorSupport& cpu) {
  // OpenBLAS's choices for a CPU it does not recognise: pre-AVX kernels.
  static constexpr std::array<const char*, 6> kFallbacks{"Prescott",   "Core2",   "Penryn",
                                                         "Dunnington", "Nehalem", "Atom"};
  bool fallback = false;
  for (const char* name : kFallbacks) fallback |= detected == name;
  if (!fallback) return "";
  if (cpu.avx512) return "SkylakeX";
  if (cpu.avx2_fma) return "Haswell";
  return "";
}

namespace {

// OpenBLAS's x86-64 cores by the widest vectors their kernels use.
constexpr std::array<const char*, 3> kAvx512Cores{"SkylakeX", "Cooperlake", "SapphireRapids"};
constexpr std::array<const char*, 6> kAvx2Cores{"Haswell",        "Zen",      "SkylakeX", "Cooperlake",
                                                "SapphireRapids", "Excavator"};

template <class Names>
bool among(const std::string& chosen, const Names& names) {
  for (const char* name : names)
    if (chosen == name) return true;
  return false;
}

}  // namespace

std::string blas_core_warning(const std::string& chosen, const CpuVectorSupport& cpu) {
  if (chosen.empty()) return "";
  const char* better = nullptr;
  if (cpu.avx512 && !among(chosen, kAvx512Cores))
    better = "SkylakeX";
  else if (!cpu.avx512 && cpu.avx2_fma && !among(chosen, kAvx2Cores))
    better = "Haswell";
  if (!better) return "";
  return "OPENBLAS_CORETYPE=" + chosen + " keeps OpenBLAS below this CPU's vectors: unset it (or set " + better +
         ") for faster fully connected layers";
}

std::string blas_core_error(const std::string& chosen, const CpuVectorSupport& cpu) {
  const char* lacks = nullptr;
  if (!cpu.avx512 && among(chosen, kAvx512Cores))
    lacks = "AVX-512";
  else if (!cpu.avx2_fma && among(chosen, kAvx2Cores))
    lacks = "AVX2";
  if (!lacks) return "";
  return std::string("OPENBLAS_CORETYPE=") + chosen + " names OpenBLAS kernels that need " + lacks +
         ", which this CPU lacks (its first matrix product would die of an illegal instruction): unset it" +
         (cpu.avx2_fma ? " or set Haswell" : "");
}

std::string blas_core_setting_error() {
  const char* chosen = std::getenv("OPENBLAS_CORETYPE");
  return chosen ? blas_core_error(chosen, cpu_vector_support()) : std::string();
}

std::string openblas_core() {
  using CoreName = char* (*)();
  const auto get = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const char* name = get ? get() : nullptr;
  return name ? std::string(name) : std::string();
}

void use_native_blas_kernels(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE")) return;  // the user's choice, or this process's second start
  const std::string core = better_blas_core(openblas_core(), cpu_vector_support());
  if (core.empty()) return;
  // The program's own path, not /proc/self/exe, so that its process name
  // (top, ps, perf) stays the program's.
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec || self.empty()) return;
  if (setenv("OPENBLAS_CORETYPE", core.c_str(), 1) != 0) return;
  execv(self.c_str(), argv);
  // Still here: the kernels stay as they were; the run is slower, not wrong.
  unsetenv("OPENBLAS_CORETYPE");
}

std::string describe_blas() {
  const std::string core = openblas_core();
  if (core.empty()) return "not OpenBLAS";
  const char* set = std::getenv("OPENBLAS_CORETYPE");
  return "OpenBLAS, " + core + " kernels" + (set ? std::string(" (OPENBLAS_CORETYPE=") + set + ")" : "");
}

}  // namespace seedrl
