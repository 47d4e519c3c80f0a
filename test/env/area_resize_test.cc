#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "area_resize_reference.h"
#include "seedrl/env/atari/area_resize.h"
#include "seedrl/util/rng.h"

using namespace seedrl;

TEST_CASE("area resize is the overlap-weighted mean, rounded to nearest", "[env][atari]") {
  // Atari's non-integer ratio, integer ratios, odd sizes, one axis kept, and a
  // column sum too large for 16 bits (300 rows into one).
  const auto [in_h, in_w, out_h, out_w] = GENERATE(table<int, int, int, int>(
      {{210, 160, 84, 84}, {8, 8, 4, 4}, {7, 5, 3, 2}, {9, 13, 9, 4}, {5, 5, 1, 1}, {11, 3, 4, 3}, {300, 7, 1, 3}}));
  INFO(in_h << "x" << in_w << " -> " << out_h << "x" << out_w);
  Rng rng(static_cast<std::uint64_t>(in_h * 1000 + in_w));
  std::vector<std::uint8_t> a(static_cast<std::size_t>(in_h) * in_w), b(a.size());
  for (auto& v : a) v = static_cast<std::uint8_t>(rng.below(256));
  for (auto& v : b) v = static_cast<std::uint8_t>(rng.below(256));
  atari::AreaResize resize(in_h, in_w, out_h, out_w);

  std::vector<double> plain(a.begin(), a.end()), pooled(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) pooled[i] = std::max(a[i], b[i]);
  const auto expect_plain = test::area_resize_reference(plain, in_h, in_w, out_h, out_w);
  const auto expect_pooled = test::area_resize_reference(pooled, in_h, in_w, out_h, out_w);

  // Written with a stride, as into an interleaved frame stack.
  const int stride = 3;
  std::vector<std::uint8_t> out(static_cast<std::size_t>(out_h) * out_w * stride, 7), out2(out);
  resize(a.data(), out.data(), stride);
  resize(a.data(), b.data(), out2.data(), stride);
  for (std::size_t p = 0; p < expect_plain.size(); ++p) {
    for (const auto& [got, want] :
         {std::pair{out[p * stride], expect_plain[p]}, std::pair{out2[p * stride], expect_pooled[p]}}) {
      // Exact but for a mean a rounding error away from a half.
      const double frac = want - std::floor(want);
      if (std::abs(frac - 0.5) > 1e-9)
        REQUIRE(got == std::lround(want));
      else
        REQUIRE(std::abs(got - want) <= 0.5 + 1e-9);
    }
    REQUIRE(out[p * stride + 1] == 7);  // the other channels untouched
  }
}

TEST_CASE("area resize of a constant image is that constant", "[env][atari]") {
  atari::AreaResize resize(210, 160, 84, 84);
  for (int v : {0, 1, 128, 254, 255}) {
    std::vector<std::uint8_t> in(210 * 160, static_cast<std::uint8_t>(v)), out(84 * 84);
    resize(in.data(), out.data());
    for (std::uint8_t o : out) REQUIRE(o == v);
  }
}

TEST_CASE("area resize refuses to upsample", "[env][atari]") {
  CHECK_THROWS_AS(atari::AreaResize(10, 10, 11, 5), std::invalid_argument);
  CHECK_THROWS_AS(atari::AreaResize(10, 10, 0, 5), std::invalid_argument);
}
