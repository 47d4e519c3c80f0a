#include "seedrl/trainer/non_finite_weights.h"

#include <fmt/format.h>

namespace seedrl {

std::string non_finite_weights_error(const std::string& what, const std::string& algo, std::int64_t steps,
                                     const std::string& checkpoint, bool checkpoint_kept) {
  // SAC refuses --max-grad-norm; smaller rewards keep its Q-values, and so
  // its critics' gradients, smaller.
  const char* flags = algo == "sac" ? "--learning-rate or --reward-scale" : "--learning-rate or --max-grad-norm";
  const std::string kept = checkpoint_kept ? fmt::format("; {} keeps the last finite weights", checkpoint)
                                           : std::string("; none was saved before, so the run leaves no checkpoint");
  return fmt::format("the learner's {} {} no longer finite (NaN or infinity) after {} steps{} (a lower {} may help)",
                     what, what == "loss" ? "is" : "are", steps, kept, flags);
}

}  // namespace seedrl
