// The trainer's remote-actor glue: flag checks and building the server
// from a TrainConfig, so the trainer only adds a few lines. It lives in
// trainer/, not net/: net/ serves actors and must not depend on the
// trainer's config.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "seedrl/net/remote_actor_server.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {
class InferenceFleet;
}

namespace seedrl::net {

// Checks --actors, --remote-actors, --token-file and friends together, and
// that no setting needs what remote actors are not told (the run's
// progress); throws std::invalid_argument naming the flag at fault. Call
// before resolve_defaults.
void validate_remote_flags(const TrainConfig& config);

// Env slots to reserve after the local ones: 0 without --remote-actors.
int remote_slots(const TrainConfig& config);

// nullptr without --remote-actors. Remote slots start at `first_slot`; each
// connection is served by the device of `inference` with the fewest live envs.
std::unique_ptr<RemoteActorServer> make_remote_server(const TrainConfig& config, const EnvSpec& spec, int first_slot,
                                                      InferenceFleet& inference, EpisodeStats& episodes,
                                                      std::atomic<std::int64_t>& frames,
                                                      RemoteActorServer::SlotRelease on_release);

}  // namespace seedrl::net
