#include "seedrl/trainer/run_ending.h"
#include "seedrl/util/error_text.h"

#include <exception>

#include <spdlog/spdlog.h>

namespace seedrl {

int finish_run(bool failed, bool interrupted, const std::function<void()>& save, const std::string& checkpoint,
               std::int64_t frames) {
  int status = 0;
  if (failed) {
    status = 1;
  } else {
    try {
      save();
    } catch (const std::exception& e) {
      spdlog::error("{}", error_text(e));
      status = 1;
    }
  }
  if (interrupted) {
    spdlog::info("interrupted; checkpoint saved to {} at {} frames", checkpoint, frames);
    if (status == 0) status = 130;
  }
  return status;
}

bool finished_before(std::int64_t checkpoint_frames, std::int64_t max_frames) {
  return checkpoint_frames >= max_frames;
}

void say_finished_before(std::int64_t checkpoint_frames, std::int64_t max_frames) {
  spdlog::info(
      "run already finished at {} frames (--max-frames {}); nothing to do: pass a larger --max-frames to "
      "continue",
      checkpoint_frames, max_frames);
}

}  // namespace seedrl
