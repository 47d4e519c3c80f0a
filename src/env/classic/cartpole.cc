#include "seedrl/env/classic/cartpole.h"

#include "seedrl/env/render/classic_draw.h"

#include <cmath>

namespace seedrl {

CartPole::CartPole() {
  spec_.name = "cartpole";
  spec_.observation = ArraySpec{{4}, DType::kFloat32};
  spec_.action = ActionSpec::discrete(2);
  spec_.action_names = {"push_left", "push_right"};
  spec_.observation_names = {"cart_position", "cart_velocity", "pole_angle", "pole_angular_velocity"};
}

void CartPole::set_state(const double s[4]) {
  for (int i = 0; i < 4; ++i) state_[i] = s[i];
}

void CartPole::write_obs(void* obs) const {
  auto* o = static_cast<float*>(obs);
  for (int i = 0; i < 4; ++i) o[i] = static_cast<float>(state_[i]);
}

void CartPole::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) rng_.reseed(*seed);
  for (double& s : state_) s = rng_.uniform(-0.05, 0.05);
  write_obs(obs);
}

StepResult CartPole::step(const Action& action, void* obs) {
  double& x = state_[0];
  double& x_dot = state_[1];
  double& theta = state_[2];
  double& theta_dot = state_[3];
  const double force = action.index == 1 ? kForceMag : -kForceMag;
  const double costheta = std::cos(theta);
  const double sintheta = std::sin(theta);
  const double temp = (force + kPoleMassLength * theta_dot * theta_dot * sintheta) / kTotalMass;
  const double thetaacc =
      (kGravity * sintheta - costheta * temp) / (kLength * (4.0 / 3.0 - kMassPole * costheta * costheta / kTotalMass));
  const double xacc = temp - kPoleMassLength * thetaacc * costheta / kTotalMass;
  // Gymnasium's default "euler" integrator: positions use the old velocities.
  x += kTau * x_dot;
  x_dot += kTau * xacc;
  theta += kTau * theta_dot;
  theta_dot += kTau * thetaacc;
  write_obs(obs);
  StepResult r;
  r.terminated = x < -kXThreshold || x > kXThreshold || theta < -kThetaThreshold || theta > kThetaThreshold;
  r.reward = 1.0f;  // Gymnasium rewards the terminating step too
  return r;
}

bool CartPole::render_rgb(RgbImage& out) {
  classic_draw::cartpole(state_[0], state_[2], out);
  return true;
}

double CartPole::render_fps() const { return classic_draw::kCartPoleFps; }

}  // namespace seedrl
