#include "seedrl/env/render/classic_draw.h"

#include <cmath>

#include "seedrl/env/render/raster.h"

namespace seedrl::classic_draw {

using raster::Colour;
using raster::Point;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr Colour kBlack{0, 0, 0};

// A (l, r, t, b) box rotated by `angle` about the origin, then moved to (ox, oy).
std::array<Point, 4> box(double l, double r, double t, double b, double angle, double ox, double oy) {
  std::array<Point, 4> out;
  const Point corners[4] = {{l, b}, {l, t}, {r, t}, {r, b}};
  for (int i = 0; i < 4; ++i) {
    const Point p = raster::rotate(corners[i], angle);
    out[i] = {p.x + ox, p.y + oy};
  }
  return out;
}

}  // namespace

void cartpole(double x, double theta, RgbImage& img) {
  constexpr int kWidth = 600, kHeight = 400;
  constexpr double scale = kWidth / (2.4 * 2), polewidth = 10.0, polelen = scale * (2 * 0.5);
  constexpr double cartwidth = 50.0, cartheight = 30.0, axleoffset = cartheight / 4.0, carty = 100;
  img.reset(kHeight, kWidth, 255, 255, 255);
  const double cartx = x * scale + kWidth / 2.0;
  const auto cart = box(-cartwidth / 2, cartwidth / 2, cartheight / 2, -cartheight / 2, 0, cartx, carty);
  raster::fill_polygon(img, cart, kBlack);
  const auto pole =
      box(-polewidth / 2, polewidth / 2, polelen - polewidth / 2, -polewidth / 2, -theta, cartx, carty + axleoffset);
  raster::fill_polygon(img, pole, {202, 152, 101});
  raster::fill_circle(img, static_cast<int>(cartx), static_cast<int>(carty + axleoffset),
                      static_cast<int>(polewidth / 2), {129, 132, 203});
  raster::line(img, 0, static_cast<int>(carty), kWidth, static_cast<int>(carty), kBlack);
  raster::flip_rows(img);
}

void pendulum(double theta, RgbImage& img) {
  constexpr int kDim = 500;
  constexpr double scale = kDim / (2.2 * 2), rod_length = 1 * scale, rod_width = 0.2 * scale;
  constexpr int offset = kDim / 2;
  constexpr Colour kRod{204, 77, 77};
  img.reset(kDim, kDim, 255, 255, 255);
  const auto rod = box(0, rod_length, rod_width / 2, -rod_width / 2, theta + kPi / 2, offset, offset);
  raster::fill_polygon(img, rod, kRod);
  const Point end = raster::rotate({rod_length, 0}, theta + kPi / 2);
  raster::fill_circle(img, static_cast<int>(end.x + offset), static_cast<int>(end.y + offset),
                      static_cast<int>(rod_width / 2), kRod);
  raster::fill_circle(img, offset, offset, static_cast<int>(0.05 * scale), kBlack);
  raster::flip_rows(img);
}

void mountain_car(double pos, double goal, RgbImage& img) {
  constexpr int kWidth = 600, kHeight = 400;
  constexpr double min_pos = -1.2, max_pos = 0.6, scale = kWidth / (max_pos - min_pos);
  constexpr double carwidth = 40, carheight = 20, clearance = 10;
  const auto height = [](double xs) { return std::sin(3 * xs) * .45 + .55; };
  img.reset(kHeight, kWidth, 255, 255, 255);
  Point prev{};
  for (int i = 0; i < 100; ++i) {  // np.linspace(min, max, 100)
    const double xs = min_pos + (max_pos - min_pos) * i / 99.0;
    const Point p{(xs - min_pos) * scale, height(xs) * scale};
    if (i > 0)
      raster::line(img, static_cast<int>(prev.x), static_cast<int>(prev.y), static_cast<int>(p.x),
                   static_cast<int>(p.y), kBlack);
    prev = p;
  }
  const double angle = std::cos(3 * pos), ox = (pos - min_pos) * scale, oy = clearance + height(pos) * scale;
  const auto car = box(-carwidth / 2, carwidth / 2, carheight, 0, angle, ox, oy);
  raster::fill_polygon(img, car, kBlack);
  for (const double wx : {carwidth / 4, -carwidth / 4}) {
    const Point w = raster::rotate({wx, 0}, angle);
    raster::fill_circle(img, static_cast<int>(w.x + ox), static_cast<int>(w.y + oy), static_cast<int>(carheight / 2.5),
                        {128, 128, 128});
  }
  const int flagx = static_cast<int>((goal - min_pos) * scale), flagy1 = static_cast<int>(height(goal) * scale);
  const int flagy2 = flagy1 + 50;
  raster::line(img, flagx, flagy1, flagx, flagy2, kBlack);
  const Point flag[3] = {{double(flagx), double(flagy2)}, {double(flagx), flagy2 - 10.0}, {flagx + 25.0, flagy2 - 5.0}};
  raster::fill_polygon(img, flag, {204, 204, 0});
  raster::flip_rows(img);
}

void acrobot(double t1, double t2, RgbImage& img) {
  // Both links are 1 long: the first from the pivot to p1, the second from p1.
  constexpr int kDim = 500;
  constexpr double scale = kDim / (2.2 * 2), offset = kDim / 2.0;
  img.reset(kDim, kDim, 255, 255, 255);
  const Point p1{-std::cos(t1) * scale, std::sin(t1) * scale};
  // Gymnasium reverses each point's coordinates ([:, ::-1]) before drawing.
  const Point joints[2] = {{0, 0}, {p1.y, p1.x}};
  const double thetas[2] = {t1 - kPi / 2, t1 + t2 - kPi / 2};
  raster::line(img, static_cast<int>(-2.2 * scale + offset), static_cast<int>(1 * scale + offset),
               static_cast<int>(2.2 * scale + offset), static_cast<int>(1 * scale + offset), kBlack);
  for (int i = 0; i < 2; ++i) {
    const double x = joints[i].x + offset, y = joints[i].y + offset;
    const auto link = box(0, scale, 0.1 * scale, -0.1 * scale, thetas[i], x, y);
    raster::fill_polygon(img, link, {0, 204, 204});
    raster::fill_circle(img, static_cast<int>(x), static_cast<int>(y), static_cast<int>(0.1 * scale), {204, 204, 0});
  }
  raster::flip_rows(img);
}

}  // namespace seedrl::classic_draw
