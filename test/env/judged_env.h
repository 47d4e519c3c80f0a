// A test env whose episodes say how they ended (episode_outcome.h): their
// lengths cycle through `ends`; one that ends before `long_from` steps says
// "short", else "long"; nothing while one is under way. Reward 1 per step.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "seedrl/env/env.h"
#include "seedrl/env/episode_outcome.h"

namespace seedrl::test {

class JudgedEnv final : public Env, public EpisodeOutcome {
 public:
  static constexpr const char* kSays[] = {"short", "long"};
  JudgedEnv(std::vector<int> ends, int long_from) : ends_(std::move(ends)), long_from_(long_from) {
    spec_.name = "judged";
    spec_.observation = ArraySpec{{1}, DType::kFloat32};
    spec_.action = ActionSpec::discrete(2);
  }
  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t>, void*) override {
    t_ = 0;
    end_ = ends_[static_cast<std::size_t>(episode_++) % ends_.size()];
  }
  StepResult step(const Action&, void*) override { return StepResult{1.f, ++t_ >= end_, false}; }
  const char* episode_outcome() const override {
    if (t_ < end_) return nullptr;
    return end_ < long_from_ ? kSays[0] : kSays[1];
  }
  std::span<const char* const> episode_outcomes() const override { return kSays; }

 private:
  EnvSpec spec_;
  std::vector<int> ends_;
  int long_from_, episode_ = 0, end_ = 0, t_ = 0;
};

}  // namespace seedrl::test
