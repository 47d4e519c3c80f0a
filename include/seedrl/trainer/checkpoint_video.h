// `train --record-every-s S`: a background thread that, every S seconds,
// plays one episode with the policy of the run's latest checkpoint file (when
// one was written since its last video) and writes it to LOGDIR/video.gif,
// atomically, so `seedrl report` and a browser never see half a file. Only
// the latest video is kept. It never blocks the learner or the actors: it
// reads the checkpoint file the learner already writes. A video that fails
// (no renderer, a full disk) is one warning, not the run's end.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "seedrl/env/registry.h"

namespace seedrl {

class CheckpointVideo {
 public:
  // `checkpoint`: the run's checkpoint file; `env` and `options`: the run's.
  // Throws std::invalid_argument naming --record-every-s when the env has no
  // renderer, before any thread starts.
  CheckpointVideo(std::string checkpoint, const std::string& logdir, double every_s, const std::string& env,
                  const EnvOptions& options, std::uint64_t seed);
  ~CheckpointVideo();  // stops the thread (a video under way is finished first)
  CheckpointVideo(const CheckpointVideo&) = delete;
  CheckpointVideo& operator=(const CheckpointVideo&) = delete;

  // After the run's last checkpoint: stops the thread, then records that
  // checkpoint here unless it was the last one recorded.
  void final_video();

  static std::string video_path(const std::string& logdir);

 private:
  void loop();
  // Records when the checkpoint changed since the last video.
  void record_if_new();

  std::string checkpoint_, path_, rom_dir_;
  double every_s_;
  std::uint64_t seed_;
  std::filesystem::file_time_type recorded_{};
  bool have_recorded_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace seedrl
