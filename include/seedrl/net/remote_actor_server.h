// The learner's side of remote actors: a TCP server (Boost.Asio) whose
// sessions stand in for actor threads. After the handshake each session leases
// K env slots from a fixed pool and is given the inference device (batcher)
// with the fewest live envs; each STEP goes to that RequestBatcher's
// submit_async() with the same EnvSteps a local actor would submit, so remote
// envs share batches, unrolls and metrics with local ones. Sockets are served
// asynchronously by the server's own I/O threads, and the inference thread
// that answers a STEP sends its ACTIONS: no thread sleeps per connection. A
// STEP is read only after the previous ACTIONS went out, so a slow learner
// slows its actors (TCP back-pressure) and memory stays bounded. When a
// session ends (and no STEP of it is in inference) its slots are handed to
// `on_release` (drop the partial unroll, zero the recurrent state) before they
// return to the pool.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "seedrl/actor/episode_stats.h"
#include "seedrl/env/spec.h"
#include "seedrl/inference/request_batcher.h"
#include "seedrl/net/protocol.h"

namespace seedrl::net {

struct RemoteServerConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (see port())
  std::string token;       // empty: no token required (loopback only)
  int first_slot = 0;      // remote slots are [first_slot, first_slot + num_slots)
  int num_slots = 256;
  int max_connections = 64;                           // handshaking and running together
  std::chrono::milliseconds timeout{30000};           // silence that ends a session
  std::chrono::milliseconds handshake_timeout{5000};  // to deliver HELLO
  std::chrono::milliseconds heartbeat{1000};          // learner heartbeats while an actor waits
  // After a GOODBYE or REJECT, how long the server waits for the peer to
  // close before it closes (discarding the peer's input meanwhile).
  std::chrono::milliseconds linger{2000};
  // Descriptors left to the rest of the process (checkpoints, logs): the
  // server holds at most the open-file limit less those open at start() and
  // less this many sockets. 0: max(64, limit / 8).
  std::size_t fd_reserve = 0;
  int io_threads = 1;
  // Local envs each batcher already serves, so that sessions fill the least
  // loaded device first. Missing entries count as 0.
  std::vector<int> local_envs;
  // env/env_settings.h of the learner's env: an actor that sends other
  // settings is refused (spec mismatch). Empty: not checked.
  std::string env_settings;
};

struct RemoteServerCounters {
  std::atomic<std::uint64_t> accepted{0}, refused{0}, sessions{0}, dropped{0}, steps{0};
  std::atomic<std::uint64_t> accept_errors{0};  // accept() failures (out of descriptors and the like)
};

class RemoteActorServer {
 public:
  using SlotRelease = std::function<void(int slot)>;

  // `batchers`: one per inference device, each able to index every remote
  // slot. `frames` and `episodes` are the run-wide counters the local actors use.
  RemoteActorServer(RemoteServerConfig config, EnvSpec spec, std::vector<RequestBatcher*> batchers,
                    EpisodeStats& episodes, std::atomic<std::int64_t>& frames, SlotRelease on_release);
  ~RemoteActorServer();
  RemoteActorServer(const RemoteActorServer&) = delete;
  RemoteActorServer& operator=(const RemoteActorServer&) = delete;

  // Binds and starts the I/O threads. Throws std::invalid_argument naming
  // --remote-actors when the address cannot be bound.
  void start();
  std::uint16_t port() const;
  // Stops accepting, says GOODBYE with `code` and closes every connection.
  // Sessions with a STEP in inference end once it is answered or the batcher closes.
  void request_stop(GoodbyeCode code = GoodbyeCode::kShutdown);
  // Waits for every session (call after the batcher is closed) and the I/O threads.
  void join();

  int free_slots() const;
  int active_sessions() const;
  // Sockets of connections the server holds (handshaking, running or closing).
  int held_sockets() const;
  // The most it will hold (set by start()).
  int socket_cap() const;
  const RemoteServerCounters& counters() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace seedrl::net
