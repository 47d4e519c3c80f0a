#include "seedrl/model/policy_distribution.h"

namespace seedrl {

std::unique_ptr<PolicyDistribution> make_policy_distribution(const ActionSpec& action) {
  if (action.is_discrete()) return make_categorical(action.num_actions);
  return make_gaussian(action.dim);
}

}  // namespace seedrl
