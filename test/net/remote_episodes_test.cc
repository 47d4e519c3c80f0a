// The learner counts a remote actor's episodes from its STEPs, as it counts a
// local actor's: an episode the actor starts over before it ended (a FIRST
// step mid-episode) is no episode, and its rewards go into no other.
#include "remote_rig.h"  // first: LibTorch may bring glog's CHECK, Catch's must win

#include <catch2/catch.hpp>

#include <cstring>

using namespace seedrl;
using namespace seedrl::test;

TEST_CASE("a remote episode restarted before its end adds nothing to the next one", "[net][server][episodes]") {
  net::RemoteServerConfig config;
  config.num_slots = 1;
  config.timeout = config.handshake_timeout = std::chrono::seconds(120);  // only a hang reaches them
  RemoteRig rig(config);
  net::RemoteActorConnection conn(rig.client(1));
  conn.connect();
  // One round trip: when it returns, the learner has counted the step.
  auto step = [&](std::uint8_t flags, float reward) {
    const float obs[4] = {1.f, 0.f, 0.f, 0.f};
    std::memcpy(conn.obs(0), obs, sizeof(obs));
    conn.flags()[0] = flags;
    conn.rewards()[0] = reward;
    conn.step();
  };
  step(kFirst, 0.f);
  step(0, 1.f);
  step(0, 1.f);
  step(kFirst, 0.f);  // the actor starts over: the 2 so far belong to no episode
  step(0, 2.f);
  step(kTerminated, 3.f);
  const auto s = rig.episodes.summary();
  CHECK(s.episodes == 1);
  CHECK(s.return_mean == Approx(5.0));
  CHECK(s.length_mean == Approx(2.0));
  CHECK(rig.frames.load() == 4);
}
