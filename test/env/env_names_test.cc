// Gymnasium-style environment names resolve to ours; typos get the nearest.
#include <catch2/catch.hpp>

#include "seedrl/env/registry.h"
#include "seedrl/util/closest_name.h"

using seedrl::EnvRegistry;

TEST_CASE("edit distance is Levenshtein's", "[env][names]") {
  using seedrl::edit_distance;
  CHECK(edit_distance("kitten", "sitting") == 3);  // the textbook example
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("flaw", "lawn") == 2);
  CHECK(edit_distance("max-frame", "max-frames") == 1);
  CHECK(seedrl::closest_name("max-frame", {"actors", "max-frames", "max-grad-norm"}) == "max-frames");
  CHECK(seedrl::closest_name("zzzzzz", {"actors", "max-frames"}).empty());
}

TEST_CASE("Gymnasium environment ids resolve to seedrl's names", "[env][names]") {
  const EnvRegistry& r = EnvRegistry::builtin();
  CHECK(r.canonical("cartpole") == "cartpole");
  CHECK(r.canonical("CartPole-v1") == "cartpole");
  CHECK(r.canonical("Acrobot-v1") == "acrobot");
  CHECK(r.canonical("Pendulum-v1") == "pendulum");
  CHECK(r.canonical("MountainCar-v0") == "mountaincar");
  CHECK(r.canonical("MountainCarContinuous-v0") == "mountaincar-continuous");
  CHECK(r.canonical("MinAtar/Breakout-v1") == "minatar:breakout");
  CHECK(r.canonical("MinAtar/SpaceInvaders-v1") == "minatar:space_invaders");
  CHECK(r.canonical("minatar:Space_Invaders") == "minatar:space_invaders");
  CHECK(r.canonical("HalfCheetah-v4") == "mujoco:halfcheetah");
  CHECK(r.canonical("Walker2d-v4") == "mujoco:walker2d");
  CHECK(r.canonical("ALE/Pong-v5") == "atari:pong");
  CHECK(r.canonical("ALE/SpaceInvaders-v5") == "atari:space_invaders");
  CHECK(r.canonical("ALE/MontezumaRevenge-v5") == "atari:montezuma_revenge");
  CHECK(r.canonical("atari:pong") == "atari:pong");
  CHECK(r.canonical("Breakout-v5").empty());  // unprefixed: MinAtar's or Atari's? neither is guessed
  CHECK(r.canonical("cartpol").empty());
  CHECK(r.canonical("CartPole-vx").empty());
  CHECK(r.closest("cartpol") == "cartpole");
  CHECK(r.closest("minatar:breakot") == "minatar:breakout");
  CHECK(r.closest("no such thing at all").empty());
}
