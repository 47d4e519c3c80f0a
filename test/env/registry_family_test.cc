// The registry's env families (atari:<game>), with or without ALE in the build.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "seedrl/env/registry.h"

using namespace seedrl;

TEST_CASE("atari:<game> is a family: any game name is accepted, and a missing one says why in one line",
          "[env][registry]") {
  const auto& registry = EnvRegistry::builtin();
  CHECK(registry.contains("atari:pong"));
  CHECK(registry.contains("atari:no_such_game"));
  CHECK_FALSE(registry.contains("atari:"));
  CHECK_FALSE(registry.contains("atarix"));

  const auto& families = registry.families();
  const auto it = std::find_if(families.begin(), families.end(), [](const auto& f) { return f.prefix == "atari:"; });
  REQUIRE(it != families.end());
  EnvOptions none;
  none.rom_dir = "/nonexistent/seedrl-roms";
  CHECK(it->list(none).empty());
  // Without ALE: how to build it in; with ALE: where ROMs go.
  CHECK_THAT(it->unavailable, Catch::Contains("install-ale.sh") || Catch::Contains("--rom-dir"));
  try {
    registry.make("atari:pong", none);
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Catch::StartsWith("atari:pong: "));
    CHECK_THAT(m, Catch::Contains("install-ale.sh") || Catch::Contains("/nonexistent/seedrl-roms"));
    CHECK(m.find('\n') == std::string::npos);
  }
  // An unknown name lists the family among the valid ones.
  CHECK_THROWS_WITH(registry.make("no_such_env"), Catch::Contains("atari:<game>"));
}

TEST_CASE("frame stack 0 means the env's default: 4 for atari:*, 1 otherwise", "[env][registry]") {
  const auto& registry = EnvRegistry::builtin();
  EnvOptions o;
  CHECK(o.frame_stack == 0);
  CHECK(registry.frame_stack("atari:pong", o) == 4);
  CHECK(registry.frame_stack("cartpole", o) == 1);
  CHECK(registry.frame_stack("minatar:breakout", o) == 1);
  o.frame_stack = 2;
  CHECK(registry.frame_stack("atari:pong", o) == 2);
  CHECK(registry.frame_stack("cartpole", o) == 2);
  o.frame_stack = 0;
  CHECK(registry.make("minatar:breakout", o)->spec().observation.to_string() == "uint8[10,10,4]");
}
