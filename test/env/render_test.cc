// The env pictures behind `--record`, against references computed here in
// double precision from the formulas of Gymnasium's classic_control sources
// and of the cubehelix colour map (Green 2011) MinAtar's GUI uses.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

#include "seedrl/env/classic/acrobot.h"
#include "seedrl/env/classic/cartpole.h"
#include "seedrl/env/classic/mountain_car.h"
#include "seedrl/env/classic/mountain_car_continuous.h"
#include "seedrl/env/classic/pendulum.h"
#include "seedrl/env/minatar/game.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/render.h"
#include "seedrl/env/render/minatar_draw.h"

using namespace seedrl;

namespace {

using Rgb = std::array<int, 3>;

// The pixel under surface point (x, y) of a pygame surface of height h,
// flipped top to bottom as Gymnasium does before returning it.
Rgb pixel(const RgbImage& img, double x, double y) {
  const int col = static_cast<int>(std::floor(x)), row = img.height - 1 - static_cast<int>(std::floor(y));
  REQUIRE(col >= 0);
  REQUIRE(col < img.width);
  REQUIRE(row >= 0);
  REQUIRE(row < img.height);
  const std::uint8_t* p = img.at(row, col);
  return {p[0], p[1], p[2]};
}

constexpr Rgb kWhite{255, 255, 255}, kBlack{0, 0, 0};

}  // namespace

TEST_CASE("render: CartPole's cart and pole tip sit where Gymnasium draws them", "[env][render]") {
  for (const auto [x, theta] : {std::pair{0.5, 0.2}, std::pair{-1.3, -0.15}, std::pair{0.0, 0.0}}) {
    CAPTURE(x, theta);
    CartPole env;
    std::vector<float> obs(4);
    env.reset(1, obs.data());
    const double s[4] = {x, 0, theta, 0};
    env.set_state(s);
    RgbImage img;
    REQUIRE(env.render_rgb(img));
    REQUIRE(img.width == 600);
    REQUIRE(img.height == 400);
    // Gymnasium: scale = 600 / 4.8, cart 50x30 centred on (x * scale + 300, 100),
    // pole 10 wide and scale * 1.0 long from the axle at 100 + 7.5, rotated by -theta.
    const double scale = 600 / 4.8, cartx = x * scale + 300, axle_y = 100 + 30 / 4.0;
    CHECK(pixel(img, cartx - 20, 90) == kBlack);
    CHECK(pixel(img, cartx - 30, 90) == kWhite);
    const double reach = scale * 1.0 - 5;  // the axis point at the pole's end
    const Rgb pole{202, 152, 101};
    CHECK(pixel(img, cartx + (reach - 2) * std::sin(theta), axle_y + (reach - 2) * std::cos(theta)) == pole);
    CHECK(pixel(img, cartx + (reach + 8) * std::sin(theta), axle_y + (reach + 8) * std::cos(theta)) == kWhite);
    CHECK(pixel(img, cartx + 40 * std::sin(theta), axle_y + 40 * std::cos(theta)) == pole);
    CHECK(pixel(img, 5, 100) == kBlack);  // the track
    CHECK(env.render_fps() == 50);
  }
}

TEST_CASE("render: Pendulum's rod ends where Gymnasium draws it", "[env][render]") {
  for (const double theta : {0.0, 0.3, 2.5, -1.9}) {
    CAPTURE(theta);
    Pendulum env;
    std::vector<float> obs(3);
    env.reset(1, obs.data());
    const double s[2] = {theta, 0};
    env.set_state(s);
    RgbImage img;
    REQUIRE(env.render_rgb(img));
    REQUIRE(img.width == 500);
    REQUIRE(img.height == 500);
    // scale = 500 / 4.4; the rod (length scale) points at angle theta + pi/2 from (250, 250).
    const double scale = 500 / 4.4, a = theta + 3.14159265358979323846 / 2;
    const Rgb rod{204, 77, 77};
    CHECK(pixel(img, 250 + 0.7 * scale * std::cos(a), 250 + 0.7 * scale * std::sin(a)) == rod);
    CHECK(pixel(img, 250 + 1.0 * scale * std::cos(a), 250 + 1.0 * scale * std::sin(a)) == rod);
    CHECK(pixel(img, 250 + 1.3 * scale * std::cos(a), 250 + 1.3 * scale * std::sin(a)) == kWhite);
    CHECK(pixel(img, 250, 250) == kBlack);  // the axle
  }
}

TEST_CASE("render: MountainCar's car and flag sit where Gymnasium draws them", "[env][render]") {
  for (const double pos : {-0.5, -1.0, 0.3}) {
    CAPTURE(pos);
    MountainCar env;
    std::vector<float> obs(2);
    env.reset(1, obs.data());
    const double s[2] = {pos, 0};
    env.set_state(s);
    RgbImage img;
    REQUIRE(env.render_rgb(img));
    REQUIRE(img.width == 600);
    REQUIRE(img.height == 400);
    const double scale = 600 / 1.8;
    const auto height = [](double p) { return std::sin(3 * p) * .45 + .55; };
    // The body's centre: (0, 10) rotated by cos(3 pos), at ((pos + 1.2) * scale, 10 + height * scale).
    const double a = std::cos(3 * pos);
    CHECK(pixel(img, (pos + 1.2) * scale - 10 * std::sin(a), 10 + height(pos) * scale + 10 * std::cos(a)) == kBlack);
    // A wheel's centre (+-10, 0) rotated: grey.
    CHECK(pixel(img, (pos + 1.2) * scale + 10 * std::cos(a), 10 + height(pos) * scale + 10 * std::sin(a)) ==
          Rgb{128, 128, 128});
    // The flag: a triangle from (flagx, flagy1 + 50) to (flagx + 25, flagy1 + 45).
    const int flagx = static_cast<int>((0.5 + 1.2) * scale), flagy2 = static_cast<int>(height(0.5) * scale) + 50;
    CHECK(pixel(img, flagx + 6, flagy2 - 5) == Rgb{204, 204, 0});
    CHECK(pixel(img, flagx + 30, flagy2 - 5) == kWhite);
  }
  MountainCarContinuous cont;
  RgbImage img;
  REQUIRE(cont.render_rgb(img));
  const double scale = 600 / 1.8;
  const int flagx = static_cast<int>((0.45 + 1.2) * scale),
            flagy2 = static_cast<int>((std::sin(3 * 0.45) * .45 + .55) * scale) + 50;
  CHECK(pixel(img, flagx + 6, flagy2 - 5) == Rgb{204, 204, 0});
}

TEST_CASE("render: Acrobot's links and joints sit where Gymnasium draws them", "[env][render]") {
  for (const auto [t1, t2] : {std::pair{0.0, 0.0}, std::pair{0.4, 0.7}, std::pair{-2.0, 1.1}}) {
    CAPTURE(t1, t2);
    Acrobot env;
    std::vector<float> obs(6);
    env.reset(1, obs.data());
    const double s[4] = {t1, t2, 0, 0};
    env.set_state(s);
    RgbImage img;
    REQUIRE(env.render_rgb(img));
    REQUIRE(img.width == 500);
    // Gymnasium: p1 = (-cos t1, sin t1) * scale, p2 = p1 + (-cos(t1+t2), sin(t1+t2)) * scale,
    // each drawn with its coordinates swapped, about (250, 250).
    const double scale = 500 / 4.4;
    const double p1[2] = {-std::cos(t1) * scale, std::sin(t1) * scale};
    const double p2[2] = {p1[0] - std::cos(t1 + t2) * scale, p1[1] + std::sin(t1 + t2) * scale};
    const Rgb link{0, 204, 204}, joint{204, 204, 0};
    CHECK(pixel(img, 250 + 0.6 * p1[1], 250 + 0.6 * p1[0]) == link);
    CHECK(pixel(img, 250 + (p1[1] + p2[1]) * 0.5 + 0.5 * (p2[1] - p1[1]) * 0.3,
                250 + (p1[0] + p2[0]) * 0.5 + 0.5 * (p2[0] - p1[0]) * 0.3) == link);
    CHECK(pixel(img, 250 + p1[1], 250 + p1[0]) == joint);
    CHECK(pixel(img, 250, 250) == joint);
    CHECK(pixel(img, 250 + 1.15 * p2[1] - 0.15 * p1[1], 250 + 1.15 * p2[0] - 0.15 * p1[0]) == kWhite);
  }
}

TEST_CASE("render: MinAtar cells take the cubehelix colour of their highest channel", "[env][render]") {
  // matplotlib's cubehelix (Green 2011; gamma 1, s 0.5, r -1.5, h 1) in
  // double precision, at the 256-entry table's entry seaborn's
  // color_palette("cubehelix", C) picks for colour k: floor(256 (k+1)/(C+1)).
  const auto reference = [](int k, int channels) {
    const double pi = std::acos(-1.0);
    const int entry = std::min(255, static_cast<int>(std::floor(256.0 * (k + 1) / (channels + 1))));
    const double lambda = entry / 255.0, amp = lambda * (1 - lambda) / 2;
    const double phi = 2 * pi * (0.5 / 3 + -1.5 * lambda);
    const double c[3] = {lambda + amp * (-0.14861 * std::cos(phi) + 1.78277 * std::sin(phi)),
                         lambda + amp * (-0.29227 * std::cos(phi) + -0.90649 * std::sin(phi)),
                         lambda + amp * (1.97294 * std::cos(phi))};
    Rgb out;
    for (int i = 0; i < 3; ++i) out[i] = static_cast<int>(std::lround(255 * std::clamp(c[i], 0.0, 1.0)));
    return out;
  };
  for (const char* name : {"minatar:breakout", "minatar:seaquest", "minatar:asterix"}) {
    CAPTURE(name);
    EnvPtr env = EnvRegistry::builtin().make(name, EnvOptions{});
    const auto& shape = env->spec().observation.shape;
    const int channels = static_cast<int>(shape[2]);
    std::vector<std::uint8_t> obs(env->spec().observation.bytes());
    env->reset(7, obs.data());
    for (int t = 0; t < 20; ++t) {
      RgbImage img;
      REQUIRE(render_rgb(*env, img));
      REQUIRE(img.width == 100);
      REQUIRE(img.height == 100);
      for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 10; ++x) {
          int top = -1;
          for (int c = 0; c < channels; ++c)
            if (obs[(y * 10 + x) * channels + c]) top = c;
          const Rgb want = top < 0 ? kBlack : reference(top, channels);
          for (const auto [dy, dx] : {std::pair{0, 0}, std::pair{9, 9}, std::pair{4, 6}}) {
            const std::uint8_t* p = img.at(y * 10 + dy, x * 10 + dx);
            REQUIRE(Rgb{p[0], p[1], p[2]} == want);
          }
        }
      if (env->step(Action{t % 6, nullptr}, obs.data()).terminated) env->reset(std::nullopt, obs.data());
    }
  }
  // Every colour differs from black and from each other.
  for (int k = 0; k < 10; ++k)
    for (int j = 0; j < k; ++j) CHECK(minatar_draw::channel_colour(k, 10) != minatar_draw::channel_colour(j, 10));
}

TEST_CASE("render: wrappers forward the picture, an action repeat divides the frame rate", "[env][render]") {
  EnvOptions o;
  EnvPtr cartpole = EnvRegistry::builtin().make("cartpole", o);  // under a TimeLimit
  RgbImage img;
  CHECK(render_rgb(*cartpole, img));
  CHECK(render_fps(*cartpole) == 50);
  o.action_repeat = 2;
  EnvPtr repeated = EnvRegistry::builtin().make("cartpole", o);
  CHECK(render_rgb(*repeated, img));
  CHECK(render_fps(*repeated) == 25);
}
