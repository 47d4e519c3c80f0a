#include "seedrl/env/classic/pendulum.h"

#include "seedrl/env/render/classic_draw.h"

#include <algorithm>
#include <cmath>

namespace seedrl {

Pendulum::Pendulum() {
  spec_.name = "pendulum";
  spec_.observation = ArraySpec{{3}, DType::kFloat32};
  spec_.action = ActionSpec::box({static_cast<float>(-kMaxTorque)}, {static_cast<float>(kMaxTorque)});
  spec_.observation_names = {"cos_theta", "sin_theta", "angular_velocity"};
}

void Pendulum::set_state(const double s[2]) {
  state_[0] = s[0];
  state_[1] = s[1];
}

double Pendulum::angle_normalize(double x) {
  constexpr double period = 2 * kPi;
  double r = std::fmod(x + kPi, period);
  if (r < 0) r += period;  // floored, not truncated, remainder
  return r - kPi;
}

void Pendulum::write_obs(void* obs) const {
  auto* o = static_cast<float*>(obs);
  o[0] = static_cast<float>(std::cos(state_[0]));
  o[1] = static_cast<float>(std::sin(state_[0]));
  o[2] = static_cast<float>(state_[1]);
}

void Pendulum::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  state_[0] = rng_.uniform(-kPi, kPi);
  state_[1] = rng_.uniform(-1.0, 1.0);
  write_obs(obs);
}

StepResult Pendulum::step(const Action& action, void* obs) {
  const double th = state_[0], thdot = state_[1];
  constexpr double g = kGravity, m = kMass, l = kLength, dt = kDt;
  const double u = std::clamp(static_cast<double>(action.values[0]), -kMaxTorque, kMaxTorque);
  const double th_n = angle_normalize(th);
  // The cost is charged on the state before the step.
  const double cost = th_n * th_n + 0.1 * thdot * thdot + 0.001 * (u * u);
  double newthdot = thdot + (3 * g / (2 * l) * std::sin(th) + 3.0 / (m * l * l) * u) * dt;
  newthdot = std::clamp(newthdot, -kMaxSpeed, kMaxSpeed);
  state_[0] = th + newthdot * dt;  // semi-implicit: the new velocity moves the angle
  state_[1] = newthdot;
  write_obs(obs);
  StepResult r;
  r.reward = static_cast<float>(-cost);
  return r;
}

bool Pendulum::render_rgb(RgbImage& out) {
  classic_draw::pendulum(state_[0], out);
  return true;
}

double Pendulum::render_fps() const { return classic_draw::kPendulumFps; }

}  // namespace seedrl
