#include "seedrl/actor/env_stepper.h"

#include <algorithm>
#include <stdexcept>

#include "seedrl/actor/clip_action.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/training_progress.h"
#include "seedrl/util/rng.h"

namespace seedrl {

std::vector<EnvPtr> make_envs(const std::string& env, const EnvOptions& options, int count,
                              const EnvRegistry* registry) {
  const EnvRegistry& from = registry != nullptr ? *registry : EnvRegistry::builtin();
  std::vector<EnvPtr> envs;
  envs.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int k = 0; k < count; ++k) envs.push_back(from.make(env, options));
  return envs;
}

EnvStepper::EnvStepper(std::vector<EnvPtr> envs, EpisodeTracker* tracker)
    : envs_(std::move(envs)), ports_(envs_.size()), tracker_(tracker) {
  if (envs_.empty()) throw std::invalid_argument("EnvStepper: no environments");
  const ActionSpec& action = spec().action;
  if (!action.is_discrete()) clipped_.resize(static_cast<std::size_t>(action.dim));
  if (tracker_) {
    tracker_->reset(envs_.size());
    says_outcome_ = !episode_outcomes(*envs_[0]).empty();
    if (says_outcome_) tracker_->name_outcomes(episode_outcomes(*envs_[0]));
  }
}

void EnvStepper::follow_progress(const std::atomic<std::int64_t>& frames, std::int64_t max_frames) {
  if (max_frames <= 0) throw std::invalid_argument("EnvStepper: progress needs a frame budget");
  frames_ = &frames;
  max_frames_ = max_frames;
}

void EnvStepper::reset(std::size_t k, std::optional<std::uint64_t> seed) {
  const EnvPort& p = ports_[k];
  if (frames_ != nullptr)
    set_training_progress(*envs_[k], training_progress(frames_->load(std::memory_order_relaxed), max_frames_));
  envs_[k]->reset(seed, p.obs);
  *p.flags = kFirst;
  *p.reward = 0.f;
  if (tracker_) tracker_->add(k, 0.f, kFirst);
}

void EnvStepper::begin(std::optional<std::uint64_t> seed, std::uint64_t first_stream) {
  for (std::size_t k = 0; k < envs_.size(); ++k)
    reset(k, seed ? std::optional<std::uint64_t>(derive_seed(*seed, first_stream + k)) : std::nullopt);
}

std::int64_t EnvStepper::step() {
  const ActionSpec& action = spec().action;
  std::int64_t stepped = 0;
  for (std::size_t k = 0; k < envs_.size(); ++k) {
    const EnvPort& p = ports_[k];
    if (is_last(*p.flags)) {
      reset(k, std::nullopt);
      continue;
    }
    const float* a = p.action;
    if (!clipped_.empty()) {
      std::copy_n(a, clipped_.size(), clipped_.data());
      clip_to_box(action, clipped_.data());
      a = clipped_.data();
    }
    const StepResult r = envs_[k]->step(Action{static_cast<std::int32_t>(a[0]), a}, p.obs);
    const auto flags = static_cast<std::uint8_t>((r.terminated ? kTerminated : 0) | (r.truncated ? kTruncated : 0) |
                                                 (r.terminated && r.life_lost ? kLifeLost : 0));
    *p.reward = r.reward;
    *p.flags = flags;
    if (tracker_)
      tracker_->add(k, r.reward, flags, says_outcome_ && is_last(flags) ? episode_outcome_index(*envs_[k]) : -1);
    ++stepped;
  }
  return stepped;
}

}  // namespace seedrl
