// The actor's side of one remote-actor connection: connect, handshake, then
// one STEP / ACTIONS round trip per step of its K environments. Blocking
// calls with deadlines (Boost.Asio's pattern: async operations driven by
// io_context::run_for), checked against a stop flag every 100 ms so Ctrl-C is
// prompt. Buffers are sized at connect; step() allocates nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "seedrl/env/spec.h"
#include "seedrl/net/protocol.h"

namespace seedrl::net {

struct ClientConfig {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::string token;
  std::string env_name;
  std::string env_settings;  // env/env_settings.h; the learner refuses other settings than its own
  EnvSpec spec;
  int num_envs = 1;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds timeout{30000};  // silence from the learner that ends the connection
  const std::atomic<bool>* stop = nullptr;   // set: blocking calls throw Stopped
};

// The learner said no. kBusy is worth retrying.
struct Rejected : std::runtime_error {
  Rejected(RejectCode c, const std::string& what) : std::runtime_error(what), code(c) {}
  RejectCode code;
};
// The learner said GOODBYE.
struct LearnerGone : std::runtime_error {
  LearnerGone(GoodbyeCode c, const std::string& what) : std::runtime_error(what), code(c) {}
  GoodbyeCode code;
};
// Unreachable, closed or timed out.
struct ConnectionLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The learner sent a frame that breaks the protocol (malformed, unexpected, or
// an action outside the spec). Nothing from it reached an environment; the
// connection is over, and retrying would not help.
struct BadFrame : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped") {}
};

class RemoteActorConnection {
 public:
  explicit RemoteActorConnection(ClientConfig config);
  ~RemoteActorConnection();
  RemoteActorConnection(const RemoteActorConnection&) = delete;
  RemoteActorConnection& operator=(const RemoteActorConnection&) = delete;

  Welcome connect();

  // Fill these, then step(): rewards and flags per env, observations
  // (obs_bytes each, contiguous, aligned for floats).
  std::span<float> rewards();
  std::span<std::uint8_t> flags();
  std::uint8_t* obs(int env);
  // Sends the STEP and waits for its ACTIONS (heartbeats are skipped), which
  // are checked against the spec (BadFrame).
  void step();
  // The actions of the last step: action_width floats per env.
  const float* actions(int env) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace seedrl::net
