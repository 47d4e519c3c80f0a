// `--record FILE`: the pictures of played episodes into one animated GIF.
// Frames come at the env's own rate (render_fps); past `max_frames` the
// episodes go on unrecorded and finish() says so in one log line.
#pragma once

#include <memory>
#include <string>

#include "seedrl/env/play_frames.h"
#include "seedrl/env/render.h"
#include "seedrl/video/gif_writer.h"

namespace seedrl {

constexpr long kDefaultRecordMaxFrames = 10000;

class GifRecorder {
 public:
  // Checks now that `path` can be written (a long play must not end in an
  // unwritable file); throws std::invalid_argument naming `flag` and the path.
  GifRecorder(std::string path, long max_frames, std::string flag = "--record");

  // The env's picture into the GIF. Throws std::invalid_argument
  // "<flag>: <env> has no renderer" for an env that cannot draw itself.
  void add(Env& env);
  FrameSink sink() {
    return [this](Env& env) { add(env); };
  }
  // Writes the file atomically (io/replace_file.h); returns the frames in it.
  // Throws std::invalid_argument naming the flag and the path when it cannot.
  int finish();

 private:
  std::string path_, flag_;
  long max_frames_;
  long seen_ = 0;
  std::unique_ptr<GifWriter> gif_;
  RgbImage frame_;
};

}  // namespace seedrl
