#include "session_host.h"

namespace seedrl::net {

SessionHost::SessionHost(RemoteServerConfig config, EnvSpec spec, std::vector<RequestBatcher*> batchers,
                         EpisodeStats& episodes, std::atomic<std::int64_t>& frames,
                         RemoteActorServer::SlotRelease on_release)
    : config(std::move(config)),
      spec(std::move(spec)),
      episodes(episodes),
      frames(frames),
      on_release(std::move(on_release)),
      slots(this->config.first_slot, this->config.num_slots, std::move(batchers), this->config.local_envs) {
  obs_bytes = this->spec.observation.bytes();
  if (this->spec.observation.dtype == DType::kFloat32) obs_floats = this->spec.observation.numel();
  action_width = static_cast<std::size_t>(this->spec.action.width());
}

}  // namespace seedrl::net
