#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "seedrl/env/registry.h"
#include "seedrl/env/synthetic/atari_shaped.h"

using namespace seedrl;

TEST_CASE("synthetic:atari has Atari's frame shape and action set", "[env][synthetic]") {
  auto env = EnvRegistry::builtin().make("synthetic:atari");
  CHECK(env->spec().observation.to_string() == "uint8[84,84,4]");
  CHECK(env->spec().action.num_actions == 18);
}

TEST_CASE("synthetic:atari rewards the action that matches the drawn block", "[env][synthetic]") {
  AtariShaped env;
  std::vector<std::uint8_t> obs(84 * 84 * 4);
  env.reset(7, obs.data());
  double matched = 0, other = 0;
  for (int t = 0; t < 999; ++t) {
    const int target = env.target();
    // The newest channel shows the block at the target's position.
    const int r = AtariShaped::block_row(target) + 1, c = AtariShaped::block_col(target) + 1;
    REQUIRE(obs[(r * 84 + c) * 4 + 0] == 255);
    const bool hit = t % 2 == 0;
    const StepResult s = env.step(Action{hit ? target : (target + 1) % 18}, obs.data());
    (hit ? matched : other) += s.reward;
    REQUIRE_FALSE(s.truncated);
  }
  CHECK(matched == 500);
  CHECK(other == 0);
  CHECK(env.step(Action{0}, obs.data()).truncated);  // step 1000
}
