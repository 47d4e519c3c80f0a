#include "step_check.h"

#include <cmath>
#include <cstring>

#include <spdlog/spdlog.h>

#include "seedrl/net/protocol.h"

namespace seedrl::net {
namespace {

// Whether the `n` floats at `p` (a STEP body: not necessarily aligned) are
// all finite.
bool all_finite(const std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    float x;
    std::memcpy(&x, p + i * sizeof(float), sizeof(float));
    if (!std::isfinite(x)) return false;
  }
  return true;
}

}  // namespace

std::string check_step(const std::uint8_t* body, std::span<EnvStep> steps, std::size_t obs_floats,
                       const EpisodeTracker& episodes) {
  const std::size_t K = steps.size();
  const std::uint8_t* flags = body + K * sizeof(float);
  for (std::size_t k = 0; k < K; ++k) {
    float reward;
    std::memcpy(&reward, body + k * sizeof(float), sizeof(float));
    if (auto bad = check_step_flags(flags[k]); !bad.empty()) return spdlog::fmt_lib::format("env {}: {}", k, bad);
    if (episodes.first_due(k) && !(flags[k] & kFirst))
      return spdlog::fmt_lib::format("env {}: step after an episode end (or the first) lacks the FIRST flag", k);
    if (!std::isfinite(reward)) return spdlog::fmt_lib::format("env {}: non-finite reward", k);
    if (!all_finite(static_cast<const std::uint8_t*>(steps[k].obs), obs_floats))
      return spdlog::fmt_lib::format("env {}: non-finite observation", k);
    steps[k].flags = flags[k];
    steps[k].reward = reward;
  }
  return {};
}

}  // namespace seedrl::net
