// How a training run ends, shared by the V-trace and R2D2 trainers: the final
// checkpoint and the exit status (0 done, 1 failed, 130 interrupted), or no
// run at all when --resume finds the run already finished.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace seedrl {

// Saves the final checkpoint unless a worker failed; a save that throws is
// logged and makes the run fail. An interrupted run that saved exits 130.
int finish_run(bool failed, bool interrupted, const std::function<void()>& save, const std::string& checkpoint,
               std::int64_t frames);

// Whether a resumed run's checkpoint already holds --max-frames. The trainer
// then says so in one line (say_finished_before) and exits 0 before it opens
// any of the run's files: summary.json, metrics.jsonl, the event files and
// the checkpoint stay as the finished run left them.
bool finished_before(std::int64_t checkpoint_frames, std::int64_t max_frames);
void say_finished_before(std::int64_t checkpoint_frames, std::int64_t max_frames);

}  // namespace seedrl
