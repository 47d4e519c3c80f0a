// Animated GIFs in memory through giflib (Debian's libgif-dev), looping
// forever. Every frame gets its own colour table: the frame's exact colours
// where it has at most 256 (MinAtar, classic control and Atari screens do),
// else a fixed 6x7x6 colour cube (each component to the nearest level).
#pragma once

#include <memory>
#include <string>

#include "seedrl/env/render.h"

namespace seedrl {

class GifWriter {
 public:
  // `delay_cs`: each frame's display time in hundredths of a second.
  explicit GifWriter(int delay_cs);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // The first frame fixes the picture's size; a later frame of another size
  // throws std::invalid_argument.
  void add(const RgbImage& frame);
  int frames() const { return frames_; }
  // Closes the GIF and returns its bytes (a GIF without frames has one black pixel).
  std::string finish();

  // hundredths of a second per frame for `fps` frames a second: at least 2,
  // below which browsers slow the animation down to 10.
  static int delay_for_fps(double fps);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int delay_cs_;
  int frames_ = 0;
};

}  // namespace seedrl
