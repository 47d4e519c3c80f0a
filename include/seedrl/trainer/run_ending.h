// How a training run ends, shared by the V-trace and R2D2 trainers: the final
// checkpoint and the exit status (0 done, 1 failed, 130 interrupted).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace seedrl {

// Saves the final checkpoint unless a worker failed; a save that throws is
// logged and makes the run fail. An interrupted run that saved exits 130.
int finish_run(bool failed, bool interrupted, const std::function<void()>& save, const std::string& checkpoint,
               std::int64_t frames);

}  // namespace seedrl
