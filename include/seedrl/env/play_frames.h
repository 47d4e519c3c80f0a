// play_episodes with a frame sink: the hook behind `--record`. The sink sees
// the env after every reset and every step (so an episode of n steps gives
// n + 1 frames) and draws what it likes from it; env/ knows nothing of videos.
#pragma once

#include <functional>

#include "seedrl/env/play.h"

namespace seedrl {

using FrameSink = std::function<void(Env& env)>;

PlayStats play_episodes(Env& env, const PlayPolicy& policy, int episodes, std::uint64_t seed, std::ostream* trace,
                        const FrameSink& frames);

}  // namespace seedrl
