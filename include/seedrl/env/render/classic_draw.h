// The classic-control pictures as Gymnasium's render_mode="rgb_array" draws
// them (gymnasium/envs/classic_control/*.py: screen sizes, colours and
// geometry), from the state alone. Differences: no anti-aliased edges, and
// Pendulum leaves out the torque arrow (an image asset in Gymnasium).
#pragma once

#include "seedrl/env/render.h"

namespace seedrl::classic_draw {

// metadata["render_fps"] of each.
constexpr double kCartPoleFps = 50, kPendulumFps = 30, kMountainCarFps = 30, kAcrobotFps = 15;

// 600x400: cart at x (metres), pole at theta (radians, 0 upright).
void cartpole(double x, double theta, RgbImage& out);
// 500x500: theta 0 upright.
void pendulum(double theta, RgbImage& out);
// 600x400: car at `position` on sin(3x) hills, flag at `goal`.
void mountain_car(double position, double goal, RgbImage& out);
// 500x500: the two joint angles.
void acrobot(double theta1, double theta2, RgbImage& out);

}  // namespace seedrl::classic_draw
