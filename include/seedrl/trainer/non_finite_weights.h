// The error that ends a run whose learner's loss or weights are no longer
// finite (NaN or infinity): the learner stops at the first such loss, and
// RunCheckpoint::save will not write such weights over the last ones.
#pragma once

#include <cstdint>
#include <string>

namespace seedrl {

// Names `checkpoint` as holding the last finite weights only when
// `checkpoint_kept` (this run wrote it, or resumed from it), and suggests
// only flags `algo` reads: --max-grad-norm for V-trace and R2D2 (SAC clips
// no gradient), --reward-scale for SAC. One line.
// `what`: "loss" or "weights".
std::string non_finite_weights_error(const std::string& what, const std::string& algo, std::int64_t steps,
                                     const std::string& checkpoint, bool checkpoint_kept);

}  // namespace seedrl
