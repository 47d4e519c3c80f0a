#include "seedrl/env/random_action.h"

namespace seedrl {

Action sample_random_action(const ActionSpec& spec, Rng& rng, float* values) {
  Action a{0, values};
  if (spec.is_discrete()) {
    a.index = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(spec.num_actions)));
    values[0] = static_cast<float>(a.index);
  } else {
    for (int d = 0; d < spec.dim; ++d) values[d] = static_cast<float>(rng.uniform(spec.low[d], spec.high[d]));
  }
  return a;
}

}  // namespace seedrl
