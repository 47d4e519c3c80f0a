// football:<scenario> names as users write them, and specs without an engine.
#include <catch2/catch.hpp>

#include "seedrl/env/registry.h"

using namespace seedrl;

TEST_CASE("Gymnasium-style GFootball ids resolve to football scenarios", "[football]") {
  const EnvRegistry& r = EnvRegistry::builtin();
  CHECK(r.canonical("GFootball/academy_empty_goal_close-v0") == "football:academy_empty_goal_close");
  CHECK(r.canonical("gfootball:11_vs_11_easy_stochastic") == "football:11_vs_11_easy_stochastic");
  CHECK(r.canonical("football:academy_corner") == "football:academy_corner");
}

TEST_CASE("football stacks four Super Mini Maps and no vectors", "[football]") {
  const EnvRegistry& r = EnvRegistry::builtin();
  EnvOptions o;
  CHECK(r.frame_stack("football:academy_corner", o) == 4);
  o.football_obs = "simple115v2";
  CHECK(r.frame_stack("football:academy_corner", o) == 1);
  o.frame_stack = 2;
  CHECK(r.frame_stack("football:academy_corner", o) == 2);
}
