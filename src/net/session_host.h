// What a remote actor server lends each of its sessions: the settings, the
// run-wide counters, the I/O context, the slot pool, the socket budget and the
// registry of sessions. The server owns it; it outlives every session.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <utility>  // before Asio: Boost 1.74 awaitable.hpp uses std::exchange unincluded

#include <boost/asio/io_context.hpp>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/env/spec.h"
#include "seedrl/net/remote_actor_server.h"

#include "log_throttle.h"
#include "session_registry.h"
#include "slot_pool.h"
#include "socket_budget.h"

namespace seedrl::net {

struct SessionHost {
  SessionHost(RemoteServerConfig config, EnvSpec spec, std::vector<RequestBatcher*> batchers, EpisodeStats& episodes,
              std::atomic<std::int64_t>& frames, RemoteActorServer::SlotRelease on_release);
  SessionHost(const SessionHost&) = delete;
  SessionHost& operator=(const SessionHost&) = delete;

  // A connection turned away (busy, silent, gone, or a bad HELLO): counted,
  // and logged within the refusal log's limits.
  void refused(const std::string& peer, const std::string& why, RefusalLog::Kind kind) {
    counters.refused.fetch_add(1, std::memory_order_relaxed);
    refusal_log.log(peer, why, kind);
  }

  RemoteServerConfig config;
  EnvSpec spec;
  std::size_t obs_bytes = 0, action_width = 1;
  std::size_t obs_floats = 0;  // checked for NaN and infinities; 0 for image (uint8) observations
  EpisodeStats& episodes;
  std::atomic<std::int64_t>& frames;
  RemoteActorServer::SlotRelease on_release;
  RemoteServerCounters counters;

  boost::asio::io_context io;
  SlotPool slots;
  SocketBudget sockets;  // of sessions, open or lingering
  SessionRegistry sessions;
  RefusalLog refusal_log;
};

}  // namespace seedrl::net
