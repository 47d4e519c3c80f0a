#include "seedrl/trainer/checkpoint_video.h"

#include <chrono>
#include <stdexcept>
#include <vector>

#include <spdlog/spdlog.h>

#include "seedrl/env/play_frames.h"
#include "seedrl/env/registry.h"
#include "seedrl/env/render.h"
#include "seedrl/report/video_embed.h"
#include "seedrl/trainer/evaluate.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/thread_name.h"
#include "seedrl/video/gif_recorder.h"

namespace seedrl {

std::string CheckpointVideo::video_path(const std::string& logdir) { return report::video_path(logdir); }

CheckpointVideo::CheckpointVideo(std::string checkpoint, const std::string& logdir, double every_s,
                                 const std::string& env_name, const EnvOptions& options, std::uint64_t seed)
    : checkpoint_(std::move(checkpoint)),
      path_(video_path(logdir)),
      rom_dir_(options.rom_dir),
      every_s_(every_s),
      seed_(seed) {
  EnvPtr env = EnvRegistry::builtin().make(env_name, options);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  env->reset(seed, obs.data());
  RgbImage picture;
  if (!render_rgb(*env, picture)) throw std::invalid_argument("--record-every-s: " + env_name + " has no renderer");
  thread_ = std::thread([this] {
    name_this_thread("video");
    loop();
  });
}

CheckpointVideo::~CheckpointVideo() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CheckpointVideo::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, std::chrono::duration<double>(every_s_), [this] { return stop_; });
    if (stop_) return;
    lock.unlock();
    record_if_new();
    lock.lock();
  }
}

void CheckpointVideo::final_video() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  record_if_new();
}

void CheckpointVideo::record_if_new() {
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(checkpoint_, ec);
  if (ec || (have_recorded_ && written == recorded_)) return;
  try {
    // Not seeding LibTorch's global generator: the actors sample from it.
    CheckpointPolicy p = load_checkpoint_policy(checkpoint_, seed_, /*greedy=*/false);
    EnvOptions options = p.config.env_options;
    options.rom_dir = rom_dir_;
    EnvPtr env = EnvRegistry::builtin().make(p.config.env, options);
    GifRecorder recorder(path_, kDefaultRecordMaxFrames, "--record-every-s");
    const PlayStats s = play_episodes(*env, p.policy, 1, seed_, nullptr, recorder.sink());
    const int frames = recorder.finish();
    spdlog::info("video: {} ({} frames, return {:.2f})", path_, frames, s.return_mean);
  } catch (const std::exception& e) {
    spdlog::warn("--record-every-s: no video: {}", error_text(e));
  }
  recorded_ = written;
  have_recorded_ = true;
  ++seed_;  // the next video plays another episode
}

}  // namespace seedrl
