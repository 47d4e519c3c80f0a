// Subnormal floats flushed to zero on the calling thread (x86's FTZ and DAZ
// bits), for the threads that run the learner and inference on a CPU.
//
// Adam's moment estimates of parameters whose gradients have gone to zero (a
// dead unit's weights) decay through the subnormal range for thousands of
// steps: exp_avg by 0.9 a step, exp_avg_sq by 0.999. Each multiply with a
// subnormal operand or result takes a microcode assist worth dozens of normal
// ones, so a fused Adam step over the Atari nets ran several times slower than
// its memory traffic allows (bench/RESULTS.md). Values below 1.2e-38 change
// no update that matters.
#pragma once

namespace seedrl {

// Sets the flags on the calling thread; threads it creates afterwards inherit
// them (POSIX: a new thread starts with its creator's floating-point
// environment). Returns false where the CPU has no such mode.
bool flush_denormals_on_this_thread();

}  // namespace seedrl
