// What MountainCar-v0 and MountainCarContinuous-v0 share in Gymnasium: the
// track, the speed limit, the reset distribution and the integration order
// (velocity first, clipped; then position from the new velocity; an inelastic
// wall at the left end). Each variant supplies its own acceleration, goal
// and reward.
#pragma once

#include <cstdint>
#include <optional>

#include "seedrl/env/env.h"
#include "seedrl/util/rng.h"

namespace seedrl {

class MountainCarPhysics : public Env {
 public:
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;
  static constexpr double kGoalVelocity = 0.0;
  static constexpr double kGravity = 0.0025;

  const EnvSpec& spec() const override { return spec_; }
  void reset(std::optional<std::uint64_t> seed, void* obs) override;

  // State access for tests: position, velocity.
  const double* state() const { return state_; }
  void set_state(const double s[2]);

 protected:
  // One step under `acceleration` (already including gravity); writes obs.
  void advance(double acceleration, void* obs);
  double position() const { return state_[0]; }
  double velocity() const { return state_[1]; }

  EnvSpec spec_;

 private:
  void write_obs(void* obs) const;
  Rng rng_;
  double state_[2] = {0, 0};
};

}  // namespace seedrl
