#include "seedrl/env/classic/acrobot.h"

#include "seedrl/env/render/classic_draw.h"

#include <algorithm>
#include <cmath>

namespace seedrl {

namespace {
// Gymnasium's wrap(): shift by whole periods until x lies in [lo, hi].
double wrap(double x, double lo, double hi) {
  const double diff = hi - lo;
  while (x > hi) x -= diff;
  while (x < lo) x += diff;
  return x;
}
}  // namespace

Acrobot::Acrobot() {
  spec_.name = "acrobot";
  spec_.observation = ArraySpec{{6}, DType::kFloat32};
  spec_.action = ActionSpec::discrete(3);
  spec_.action_names = {"torque_-1", "torque_0", "torque_+1"};
  spec_.observation_names = {"cos_theta1", "sin_theta1",      "cos_theta2",
                             "sin_theta2", "theta1_velocity", "theta2_velocity"};
}

void Acrobot::set_state(const double s[4]) {
  for (int i = 0; i < 4; ++i) state_[i] = s[i];
}

void Acrobot::write_obs(void* obs) const {
  auto* o = static_cast<float*>(obs);
  o[0] = static_cast<float>(std::cos(state_[0]));
  o[1] = static_cast<float>(std::sin(state_[0]));
  o[2] = static_cast<float>(std::cos(state_[1]));
  o[3] = static_cast<float>(std::sin(state_[1]));
  o[4] = static_cast<float>(state_[2]);
  o[5] = static_cast<float>(state_[3]);
}

void Acrobot::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  // Gymnasium stores the start state as float32; round the same way.
  for (double& s : state_) s = static_cast<float>(rng_.uniform(-0.1, 0.1));
  write_obs(obs);
}

void Acrobot::derivs(const double s[4], double a, double out[4]) {
  constexpr double m1 = kLinkMass1, m2 = kLinkMass2, l1 = kLinkLength1;
  constexpr double lc1 = kLinkComPos1, lc2 = kLinkComPos2, i1 = kLinkMoi, i2 = kLinkMoi;
  constexpr double g = kGravity;
  const double theta1 = s[0], theta2 = s[1], dtheta1 = s[2], dtheta2 = s[3];
  const double d1 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * std::cos(theta2)) + i1 + i2;
  const double d2 = m2 * (lc2 * lc2 + l1 * lc2 * std::cos(theta2)) + i2;
  const double phi2 = m2 * lc2 * g * std::cos(theta1 + theta2 - kPi / 2.0);
  const double phi1 = -m2 * l1 * lc2 * dtheta2 * dtheta2 * std::sin(theta2) -
                      2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * std::sin(theta2) +
                      (m1 * lc1 + m2 * l1) * g * std::cos(theta1 - kPi / 2) + phi2;
  // The "book" variant (Sutton & Barto) keeps the dtheta1^2 coupling term.
  const double ddtheta2 = (a + d2 / d1 * phi1 - m2 * l1 * lc2 * dtheta1 * dtheta1 * std::sin(theta2) - phi2) /
                          (m2 * lc2 * lc2 + i2 - d2 * d2 / d1);
  const double ddtheta1 = -(d2 * ddtheta2 + phi1) / d1;
  out[0] = dtheta1;
  out[1] = dtheta2;
  out[2] = ddtheta1;
  out[3] = ddtheta2;
}

StepResult Acrobot::step(const Action& action, void* obs) {
  const double torque = kTorques[action.index];
  // One classic RK4 step over [0, dt]; the torque is held constant.
  constexpr double h = kDt, h2 = kDt / 2.0;
  double k1[4], k2[4], k3[4], k4[4], y[4];
  derivs(state_, torque, k1);
  for (int i = 0; i < 4; ++i) y[i] = state_[i] + h2 * k1[i];
  derivs(y, torque, k2);
  for (int i = 0; i < 4; ++i) y[i] = state_[i] + h2 * k2[i];
  derivs(y, torque, k3);
  for (int i = 0; i < 4; ++i) y[i] = state_[i] + h * k3[i];
  derivs(y, torque, k4);
  for (int i = 0; i < 4; ++i) state_[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  state_[0] = wrap(state_[0], -kPi, kPi);
  state_[1] = wrap(state_[1], -kPi, kPi);
  state_[2] = std::clamp(state_[2], -kMaxVel1, kMaxVel1);
  state_[3] = std::clamp(state_[3], -kMaxVel2, kMaxVel2);
  write_obs(obs);
  StepResult r;
  r.terminated = -std::cos(state_[0]) - std::cos(state_[1] + state_[0]) > 1.0;
  r.reward = r.terminated ? 0.0f : -1.0f;
  return r;
}

bool Acrobot::render_rgb(RgbImage& out) {
  classic_draw::acrobot(state_[0], state_[1], out);
  return true;
}

double Acrobot::render_fps() const { return classic_draw::kAcrobotFps; }

}  // namespace seedrl
