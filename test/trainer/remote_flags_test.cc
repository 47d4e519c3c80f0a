// The remote-actor flags checked together before a run starts: what remote
// actors cannot do is refused in one line naming the flag.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "seedrl/trainer/remote_training.h"

using namespace seedrl;

TEST_CASE("remote actors refuse the shot-hold curriculum, which only local actors follow", "[trainer][remote]") {
  TrainConfig c;
  c.env = "football:academy_run_to_score_with_keeper";
  c.remote_actors = "127.0.0.1:0";
  CHECK_NOTHROW(net::validate_remote_flags(c));
  c.env_options.football_shot_hold_prob_final = 0;
  CHECK_THROWS_WITH(net::validate_remote_flags(c), Catch::StartsWith("--football-shot-hold-prob-final: remote actors"));
  // Local actors alone follow the run's progress.
  c.remote_actors.clear();
  c.actors = 4;
  CHECK_NOTHROW(net::validate_remote_flags(c));
}
