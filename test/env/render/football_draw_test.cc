// The football pitch picture: where players and the ball land, against the
// mapping the header documents, recomputed here; what is left out; and that
// positions off the picture never write outside it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "seedrl/env/football/game_state.h"
#include "seedrl/env/render.h"
#include "seedrl/env/render/football_draw.h"

using namespace seedrl;
namespace fd = seedrl::football_draw;

namespace {

using Rgb = std::array<int, 3>;

// The documented mapping: column 288 + 256 x, row 192 + 384 y, floored.
int col_of(double x) { return static_cast<int>(std::floor(288.0 + 256.0 * x)); }
int row_of(double y) { return static_cast<int>(std::floor(192.0 + 384.0 * y)); }

Rgb pixel(const RgbImage& img, int col, int row) {
  REQUIRE(col >= 0);
  REQUIRE(col < img.width);
  REQUIRE(row >= 0);
  REQUIRE(row < img.height);
  const std::uint8_t* p = img.at(row, col);
  return {p[0], p[1], p[2]};
}

Rgb at_env(const RgbImage& img, double x, double y, int dcol = 0, int drow = 0) {
  return pixel(img, col_of(x) + dcol, row_of(y) + drow);
}

Rgb rgb(const fd::Colour& c) { return {c[0], c[1], c[2]}; }

football::GameState empty_state() {
  football::GameState s;
  s.ball = {-0.9f, 0.35f, 0.0f};  // out of the way of the players under test
  return s;
}

void place(football::TeamState& t, int i, float x, float y) {
  t.count = std::max(t.count, i + 1);
  t.players[i].x = x;
  t.players[i].y = y;
}

RgbImage draw(const football::GameState& s) {
  RgbImage img;
  fd::pitch(s, img);
  return img;
}

}  // namespace

TEST_CASE("football_draw: fixed even size and the buffer is reused", "[football]") {
  RgbImage img;
  fd::pitch(empty_state(), img);
  CHECK(img.width == 576);
  CHECK(img.height == 384);
  CHECK(img.width % 2 == 0);
  CHECK(img.height % 2 == 0);
  CHECK(img.rgb.size() == static_cast<std::size_t>(576 * 384 * 3));
  const std::uint8_t* data = img.rgb.data();
  auto s = empty_state();
  place(s.left, 0, 0.5f, 0.1f);
  fd::pitch(s, img);
  CHECK(img.rgb.data() == data);
}

TEST_CASE("football_draw: a player lands at its mapped pixel in its team colour", "[football]") {
  auto s = empty_state();
  place(s.left, 0, 0.3f, -0.2f);
  place(s.right, 0, -0.45f, 0.15f);
  const RgbImage img = draw(s);
  CHECK(at_env(img, 0.3, -0.2) == rgb(fd::kLeftColour));
  CHECK(at_env(img, -0.45, 0.15) == rgb(fd::kRightColour));
  CHECK(rgb(fd::kLeftColour) != rgb(fd::kRightColour));
  // The disc has the documented radius: inside at 4 pixels, not at 8.
  CHECK(at_env(img, 0.3, -0.2, fd::kPlayerRadius - 1, 0) == rgb(fd::kLeftColour));
  CHECK(at_env(img, 0.3, -0.2, 0, -(fd::kPlayerRadius - 1)) == rgb(fd::kLeftColour));
  CHECK(at_env(img, 0.3, -0.2, 8, 0) != rgb(fd::kLeftColour));
  // +y is down the screen: a player at y > 0 is below the centre row.
  CHECK(row_of(0.15) > img.height / 2);
}

TEST_CASE("football_draw: a red-carded player is not drawn", "[football]") {
  auto s = empty_state();
  const RgbImage without = draw(s);
  place(s.left, 2, 0.25f, 0.05f);
  place(s.right, 1, -0.25f, -0.05f);
  s.left.players[2].active = false;
  s.right.players[1].active = false;
  // The slots below the placed ones default to (0, 0): red-card them too so
  // that only the placed players could differ.
  s.left.players[0].active = s.left.players[1].active = false;
  s.right.players[0].active = false;
  const RgbImage with = draw(s);
  CHECK(with.rgb == without.rgb);
  s.left.players[2].active = true;
  CHECK(at_env(draw(s), 0.25, 0.05) == rgb(fd::kLeftColour));
}

TEST_CASE("football_draw: the controlled player gets a ring that follows left_controlled", "[football]") {
  auto s = empty_state();
  place(s.left, 0, -0.4f, -0.1f);
  place(s.left, 1, 0.4f, 0.2f);
  const Rgb ring = rgb(fd::kControlledColour);
  const int mid = (fd::kRingInner + fd::kRingOuter + 1) / 2;

  s.left_controlled = -1;
  RgbImage img = draw(s);
  CHECK(at_env(img, -0.4, -0.1, mid, 0) != ring);
  CHECK(at_env(img, 0.4, 0.2, mid, 0) != ring);

  s.left_controlled = 0;
  img = draw(s);
  CHECK(at_env(img, -0.4, -0.1, mid, 0) == ring);
  CHECK(at_env(img, -0.4, -0.1, -mid, 0) == ring);
  CHECK(at_env(img, -0.4, -0.1, 0, mid) == ring);
  CHECK(at_env(img, -0.4, -0.1, 0, -mid) == ring);
  CHECK(at_env(img, -0.4, -0.1) == rgb(fd::kLeftColour));  // the ring leaves the player visible
  CHECK(at_env(img, 0.4, 0.2, mid, 0) != ring);

  s.left_controlled = 1;
  img = draw(s);
  CHECK(at_env(img, -0.4, -0.1, mid, 0) != ring);
  CHECK(at_env(img, 0.4, 0.2, mid, 0) == ring);
  CHECK(at_env(img, 0.4, 0.2, 0, -mid) == ring);

  // An index past the team's players, or a red-carded one, gets no ring.
  s.left_controlled = 5;
  CHECK(draw(s).rgb == [&] {
    auto t = s;
    t.left_controlled = -1;
    return draw(t).rgb;
  }());
  s.left_controlled = 1;
  s.left.players[1].active = false;
  CHECK(at_env(draw(s), 0.4, 0.2, mid, 0) != ring);
}

TEST_CASE("football_draw: the ball is drawn at its position, over players, bigger in the air", "[football]") {
  auto s = empty_state();
  s.ball = {0.6f, -0.3f, 0.0f};
  RgbImage img = draw(s);
  CHECK(at_env(img, 0.6, -0.3) == rgb(fd::kBallColour));
  CHECK(at_env(img, 0.6, -0.3, 8, 0) != rgb(fd::kBallColour));
  // On the ground the ball is smaller than a player; high up, bigger.
  const Rgb ground_edge = at_env(img, 0.6, -0.3, 5, 0);
  CHECK(ground_edge != rgb(fd::kBallColour));
  s.ball[2] = 8.0f;
  CHECK(at_env(draw(s), 0.6, -0.3, 5, 0) == rgb(fd::kBallColour));

  // A player holding the ball: the ball shows on top, the player around it.
  s.ball = {0.2f, 0.1f, 0.0f};
  place(s.left, 0, 0.2f, 0.1f);
  place(s.right, 0, 0.2f, 0.1f);
  s.ball_owned_team = 0;
  s.ball_owned_player = 0;
  img = draw(s);
  CHECK(at_env(img, 0.2, 0.1) == rgb(fd::kBallColour));
  CHECK(at_env(img, 0.2, 0.1, fd::kPlayerRadius, 0) == rgb(fd::kLeftColour));
}

TEST_CASE("football_draw: the ball owner's outline is highlighted", "[football]") {
  auto s = empty_state();
  place(s.right, 3, -0.5f, 0.1f);
  const Rgb plain = at_env(draw(s), -0.5, 0.1, fd::kPlayerRadius + 1, 0);
  s.ball_owned_team = 1;
  s.ball_owned_player = 3;
  const Rgb owned = at_env(draw(s), -0.5, 0.1, fd::kPlayerRadius + 1, 0);
  CHECK(plain != owned);
  // The same index on the other team does not highlight this player.
  s.ball_owned_team = 0;
  CHECK(at_env(draw(s), -0.5, 0.1, fd::kPlayerRadius + 1, 0) == plain);
}

TEST_CASE("football_draw: the pitch corners stay inside the picture", "[football]") {
  const std::array<std::array<float, 2>, 4> corners{{{-1.0f, -0.42f}, {1.0f, -0.42f}, {-1.0f, 0.42f}, {1.0f, 0.42f}}};
  for (const auto& c : corners) {
    INFO("corner " << c[0] << ", " << c[1]);
    const int col = col_of(c[0]), row = row_of(c[1]);
    CHECK(col - fd::kRingOuter >= 0);
    CHECK(col + fd::kRingOuter < 576);
    CHECK(row - fd::kRingOuter >= 0);
    CHECK(row + fd::kRingOuter < 384);
    auto s = empty_state();
    place(s.left, 0, c[0], c[1]);
    s.left_controlled = 0;
    RgbImage img = draw(s);
    CHECK(at_env(img, c[0], c[1]) == rgb(fd::kLeftColour));
    CHECK(at_env(img, c[0], c[1], fd::kRingOuter - 1, 0) == rgb(fd::kControlledColour));
    s.left_controlled = -1;
    s.ball = {c[0], c[1], 20.0f};
    CHECK(at_env(draw(s), c[0], c[1]) == rgb(fd::kBallColour));
  }
}

TEST_CASE("football_draw: positions off the pitch are clipped or skipped", "[football]") {
  const RgbImage base = draw(empty_state());
  auto s = empty_state();
  // A ball in the right goal is still on the picture.
  s.ball = {1.03f, 0.0f, 0.5f};
  CHECK(at_env(draw(s), 1.03, 0.0) == rgb(fd::kBallColour));

  // Partly off the edge: drawn and clipped.
  s = empty_state();
  place(s.left, 0, 1.12f, 0.49f);
  place(s.right, 0, -1.12f, -0.499f);
  s.ball = {1.124f, -0.499f, 3.0f};
  s.left_controlled = 0;
  RgbImage img = draw(s);
  CHECK(img.rgb.size() == base.rgb.size());
  CHECK(at_env(img, 1.12, 0.49) == rgb(fd::kLeftColour));

  // Far off, not finite or huge: skipped, the picture stays the empty one.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const float bad : {nan, inf, -inf, 1e30f, -1e30f, 1.5f, -3.0f}) {
    INFO("position " << bad);
    s = empty_state();
    place(s.left, 0, bad, 0.1f);
    place(s.left, 1, 0.1f, bad);
    place(s.right, 0, bad, bad);
    s.left_controlled = 0;
    s.ball = {bad, bad, bad};
    CHECK(draw(s).rgb == [&] {
      auto t = empty_state();
      t.ball = {bad, bad, bad};
      return draw(t).rgb;
    }());
    // Only the ball's height not finite: drawn as on the ground.
    s = empty_state();
    s.ball = {0.1f, 0.1f, bad};
    CHECK(at_env(draw(s), 0.1, 0.1) == rgb(fd::kBallColour));
  }

  // Nonsense counts and indices do not read or write out of range.
  s = empty_state();
  s.left.count = 99;
  s.right.count = -4;
  s.left_controlled = 42;
  s.ball_owned_team = 0;
  s.ball_owned_player = 77;
  s.left_goals = 1000;
  s.right_goals = -3;
  s.step = 2000000000;
  s.steps_left = 2000000000;
  img = draw(s);
  CHECK(img.width == 576);
}

TEST_CASE("football_draw: the score shows as tally marks above the pitch", "[football]") {
  auto s = empty_state();
  const RgbImage none = draw(s);
  const int tally_row = 12, left_first = col_of(-1.0), right_first = col_of(1.0) - 1;
  CHECK(pixel(none, left_first, tally_row) != rgb(fd::kLeftColour));
  CHECK(pixel(none, right_first, tally_row) != rgb(fd::kRightColour));
  s.left_goals = 2;
  s.right_goals = 1;
  const RgbImage scored = draw(s);
  CHECK(pixel(scored, left_first, tally_row) == rgb(fd::kLeftColour));
  CHECK(pixel(scored, left_first + 5, tally_row) == rgb(fd::kLeftColour));
  CHECK(pixel(scored, left_first + 10, tally_row) != rgb(fd::kLeftColour));
  CHECK(pixel(scored, right_first, tally_row) == rgb(fd::kRightColour));
  CHECK(pixel(scored, right_first - 5, tally_row) != rgb(fd::kRightColour));
  // The marks stay in the margin above the top touchline.
  CHECK(tally_row < row_of(-0.42));
}
