// RGB pictures of an env's current state, for videos (`--record`). An env
// that can draw itself also derives from RgbRenderable; the wrappers forward
// to the env they wrap. The hook is a mix-in rather than a virtual on Env so
// that envs without a picture (and Env's many users) are untouched.
#pragma once

#include <cstdint>
#include <vector>

namespace seedrl {

class Env;

// Row-major, top row first, 3 bytes (R, G, B) a pixel.
struct RgbImage {
  int height = 0, width = 0;
  std::vector<std::uint8_t> rgb;

  // Resizes (allocating only when the size grows) and fills with one colour.
  void reset(int h, int w, std::uint8_t r, std::uint8_t g, std::uint8_t b);
  std::uint8_t* at(int y, int x) { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
  const std::uint8_t* at(int y, int x) const { return rgb.data() + (static_cast<std::size_t>(y) * width + x) * 3; }
};

class RgbRenderable {
 public:
  // Draws the current state (after reset or the last step) into `out`;
  // false when this env cannot (then `out` is unspecified).
  virtual bool render_rgb(RgbImage& out) = 0;
  // Frames per second at which consecutive steps look natural (Gymnasium's
  // metadata["render_fps"], Atari's 60 Hz over its frame skip).
  virtual double render_fps() const = 0;

 protected:
  ~RgbRenderable() = default;
};

// The env's picture through any wrappers; false when it has none.
bool render_rgb(Env& env, RgbImage& out);
// Its frame rate; 0 when it has no picture.
double render_fps(const Env& env);

}  // namespace seedrl
