#include "seedrl/video/gif_recorder.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>
#include <unistd.h>

#include "seedrl/env/env.h"
#include "seedrl/io/replace_file.h"
#include "seedrl/util/error_text.h"

namespace seedrl {

namespace {

// replace_file writes `path`.tmp<pid> beside it; try that now.
void check_writable(const std::string& path, const std::string& flag) {
  if (path.empty()) throw std::invalid_argument(flag + ": empty file name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::invalid_argument(flag + ": " + path + " is a directory, not a file");
  const std::string probe = path + ".tmp" + std::to_string(::getpid());
  std::ofstream out(probe, std::ios::binary);
  if (!out) throw std::invalid_argument(flag + ": cannot write " + path + ": " + std::strerror(errno));
  out.close();
  std::filesystem::remove(probe, ec);
}

}  // namespace

GifRecorder::GifRecorder(std::string path, long max_frames, std::string flag)
    : path_(std::move(path)), flag_(std::move(flag)), max_frames_(max_frames) {
  check_writable(path_, flag_);
}

void GifRecorder::add(Env& env) {
  ++seen_;
  if (gif_ && gif_->frames() >= max_frames_) return;
  if (!render_rgb(env, frame_)) {
    const std::string name = env.spec().name;
    throw std::invalid_argument(
        flag_ + ": " + name + " has no renderer" +
        (name.rfind("mujoco:", 0) == 0 ? " (MuJoCo would need an OpenGL context for offscreen rendering)" : ""));
  }
  if (!gif_) gif_ = std::make_unique<GifWriter>(GifWriter::delay_for_fps(render_fps(env)));
  gif_->add(frame_);
}

int GifRecorder::finish() {
  if (!gif_) gif_ = std::make_unique<GifWriter>(10);
  const int frames = gif_->frames();
  const std::string bytes = gif_->finish();
  try {
    replace_file(path_, bytes);
  } catch (const std::exception& e) {
    throw std::invalid_argument(flag_ + ": cannot write " + path_ + ": " + error_text(e));
  }
  if (seen_ > frames)
    spdlog::info("{}: recorded the first {} of {} frames (the cap, --record-max-frames) into {}", flag_, frames, seen_,
                 path_);
  return frames;
}

}  // namespace seedrl
