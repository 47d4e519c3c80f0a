// Where MuJoCo's own errors and warnings go. Its defaults suit a desktop
// demo, not a trainer: a fatal error (an allocation that failed, a broken
// model) prints "Press Enter to exit", then waits on stdin, so a run whose
// stdin is a pipe or a terminal hangs; every warning appends to
// MUJOCO_LOG.TXT in the working directory and prints two lines per step.
//
// Installed once per process, before the first model loads: a fatal error
// prints one line, "seedrl: error: MuJoCo: <what>", and ends the process with
// status 1 (MuJoCo's C code cannot carry an exception back to ours, and its
// state after a fatal error is not to be trusted); a warning prints one line
// to stderr, the first kShownWarnings of them, then one saying the rest are
// not shown.
#pragma once

namespace seedrl {

inline constexpr int kShownWarnings = 10;

// Idempotent and thread-safe. Does nothing in a build without MuJoCo.
void install_mujoco_messages();

}  // namespace seedrl
