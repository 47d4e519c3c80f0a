#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "../cli/run_binary.h"
#include "gif_decode.h"
#include "seedrl/env/registry.h"
#include "seedrl/util/rng.h"
#include "seedrl/video/gif_recorder.h"
#include "seedrl/video/gif_writer.h"

using namespace seedrl;

namespace {

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// A frame of `colours` distinct colours (at most 256^3), in a shuffled layout.
RgbImage frame(int h, int w, int colours, std::uint64_t seed) {
  RgbImage f;
  f.reset(h, w, 0, 0, 0);
  Rng rng(seed);
  for (int p = 0; p < h * w; ++p) {
    const std::uint32_t c = static_cast<std::uint32_t>(rng.below(static_cast<std::uint64_t>(colours))) * 2654435761u;
    f.rgb[3 * p] = c >> 24, f.rgb[3 * p + 1] = c >> 16, f.rgb[3 * p + 2] = c >> 8;
  }
  return f;
}

}  // namespace

TEST_CASE("gif: frames of up to 256 colours come back from giflib's decoder exactly", "[video]") {
  const std::string dir = test::temp_dir("gif_round_trip");
  GifWriter gif(7);
  std::vector<RgbImage> frames{frame(30, 41, 256, 1), frame(30, 41, 2, 2), frame(30, 41, 1, 3), frame(30, 41, 77, 4)};
  for (const auto& f : frames) gif.add(f);
  CHECK(gif.frames() == 4);
  write_bytes(dir + "/a.gif", gif.finish());
  const auto decoded = test::decode_gif(dir + "/a.gif");
  REQUIRE(decoded.size() == frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    CAPTURE(i);
    CHECK(decoded[i].delay_cs == 7);
    CHECK(decoded[i].image.height == 30);
    CHECK(decoded[i].image.width == 41);
    CHECK(decoded[i].image.rgb == frames[i].rgb);
  }
}

TEST_CASE("gif: a frame of more than 256 colours comes back on the 6x7x6 cube", "[video]") {
  const std::string dir = test::temp_dir("gif_cube");
  GifWriter gif(3);
  const RgbImage f = frame(20, 20, 400, 9);
  gif.add(f);
  write_bytes(dir + "/b.gif", gif.finish());
  const auto decoded = test::decode_gif(dir + "/b.gif");
  REQUIRE(decoded.size() == 1);
  // Each component is the nearest of 6 (red, blue) or 7 (green) even levels.
  const int levels[3] = {6, 7, 6};
  for (std::size_t i = 0; i < f.rgb.size(); ++i) {
    const double step = 255.0 / (levels[i % 3] - 1);
    CHECK(std::abs(int{decoded[0].image.rgb[i]} - int{f.rgb[i]}) <= step / 2 + 1);
  }
}

TEST_CASE("gif: a frame of another size is refused", "[video]") {
  GifWriter gif(3);
  gif.add(frame(4, 4, 2, 1));
  CHECK_THROWS_AS(gif.add(frame(4, 5, 2, 1)), std::invalid_argument);
}

TEST_CASE("gif: the frame delay follows the env's rate", "[video]") {
  CHECK(GifWriter::delay_for_fps(50) == 2);
  CHECK(GifWriter::delay_for_fps(15) == 7);
  CHECK(GifWriter::delay_for_fps(10) == 10);
  CHECK(GifWriter::delay_for_fps(200) == 2);
}

TEST_CASE("gif recorder: the cap keeps the first frames, an unwritable path names the flag", "[video]") {
  const std::string dir = test::temp_dir("gif_recorder");
  EnvPtr env = EnvRegistry::builtin().make("minatar:breakout", EnvOptions{});
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  GifRecorder rec(dir + "/c.gif", 3);
  env->reset(1, obs.data());
  for (int t = 0; t < 5; ++t) rec.add(*env);
  CHECK(rec.finish() == 3);
  const auto decoded = test::decode_gif(dir + "/c.gif");
  CHECK(decoded.size() == 3);
  CHECK(decoded[0].delay_cs == 10);
  try {
    GifRecorder bad(dir + "/no/such/dir/d.gif", 3);
    FAIL("no throw");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::Contains("--record") && Catch::Contains(dir + "/no/such/dir/d.gif"));
  }
}
