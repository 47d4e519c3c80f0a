// SEEDRL_VECTOR_CLONES before a hot loop's function compiles it three times
// (AVX-512, AVX2 and the build's baseline, SSE2 on x86-64) and picks the
// widest the CPU runs when the program loads (GCC's and Clang's
// target_clones). The binary stays portable; the loops that bound a CPU
// learner (the fused Adam step, the gradient norm, the frames' conversion)
// get the CPU's full vector width. Neither target enables FMA, so every clone
// rounds as the baseline does and results do not depend on the CPU.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__linux__)
#define SEEDRL_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SEEDRL_VECTOR_CLONES
#endif
