#include "seedrl/trainer/remote_training.h"

#include <stdexcept>

#include "seedrl/env/env_settings.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/net/descriptor_reserve.h"

namespace seedrl::net {

void validate_remote_flags(const TrainConfig& c) {
  if (c.remote_actors.empty()) {
    if (c.actors == 0) throw std::invalid_argument("--actors: 0 local actors needs --remote-actors HOST:PORT");
    return;
  }
  if (c.actors < 0) throw std::invalid_argument("--actors: must be >= 0");
  // Remote actors are not told the run's progress (TrainingProgress).
  if (c.env_options.football_shot_hold_prob_final >= 0)
    throw std::invalid_argument(
        "--football-shot-hold-prob-final: remote actors do not follow the run's progress; anneal the shot hold "
        "with local actors only (drop --remote-actors or the flag)");
  const HostPort hp = parse_host_port(c.remote_actors, "--remote-actors");
  if (!is_loopback_host(hp.host) && c.token_file.empty())
    throw std::invalid_argument("--remote-actors: " + c.remote_actors +
                                " listens beyond loopback; give a shared secret with --token-file");
  if (!c.token_file.empty()) read_token_file(c.token_file, "--token-file");
  if (c.max_remote_envs < 1) throw std::invalid_argument("--max-remote-envs: must be >= 1");
  if (c.max_remote_connections < 1) throw std::invalid_argument("--max-remote-connections: must be >= 1");
}

int remote_slots(const TrainConfig& c) { return c.remote_actors.empty() ? 0 : c.max_remote_envs; }

std::unique_ptr<RemoteActorServer> make_remote_server(const TrainConfig& c, const EnvSpec& spec, int first_slot,
                                                      InferenceFleet& inference, EpisodeStats& episodes,
                                                      std::atomic<std::int64_t>& frames,
                                                      RemoteActorServer::SlotRelease on_release) {
  if (c.remote_actors.empty()) return nullptr;
  // Each connection costs a descriptor: take what the hard limit allows, of
  // which the server leaves a reserve to checkpoints and logs.
  raise_descriptor_limit();
  const HostPort hp = parse_host_port(c.remote_actors, "--remote-actors");
  RemoteServerConfig rc;
  rc.host = hp.host;
  rc.port = hp.port;
  if (!c.token_file.empty()) rc.token = read_token_file(c.token_file, "--token-file");
  rc.first_slot = first_slot;
  rc.num_slots = c.max_remote_envs;
  rc.max_connections = c.max_remote_connections;
  rc.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(c.remote_timeout_s * 1000));
  for (int d = 0; d < inference.size(); ++d) rc.local_envs.push_back(inference.local_envs(d));
  rc.env_settings = env_settings(c.env, c.env_options);
  auto server =
      std::make_unique<RemoteActorServer>(rc, spec, inference.batchers(), episodes, frames, std::move(on_release));
  server->start();
  return server;
}

}  // namespace seedrl::net
