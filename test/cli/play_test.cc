#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "run_binary.h"

using namespace seedrl::test;

TEST_CASE("play prints return statistics as JSON", "[cli][play]") {
  // A uniformly random CartPole policy lasts about 22 steps on average
  // (reward 1 per step, so return equals length).
  RunResult r =
      run_seedrl({"play", "--env", "cartpole", "--policy", "random", "--episodes", "3000", "--seed", "5", "--json"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.output);
  CHECK(j["episodes"] == 3000);
  CHECK(j["episode_return_mean"].get<double>() == Approx(j["episode_length_mean"].get<double>()));
  CHECK(j["episode_return_mean"].get<double>() > 20.0);
  CHECK(j["episode_return_mean"].get<double>() < 24.5);
  CHECK(j["episode_return_std"].get<double>() > 5.0);

  // Always pushing one way topples the pole in about 9-10 steps.
  RunResult c = run_seedrl({"play", "--env", "cartpole", "--policy", "const:1", "--episodes", "200", "--json"});
  REQUIRE(c.status == 0);
  auto k = nlohmann::json::parse(c.output);
  CHECK(k["episode_length_mean"].get<double>() > 8.0);
  CHECK(k["episode_length_mean"].get<double>() < 11.0);
}

TEST_CASE("play rejects an unknown env or policy naming the valid choices", "[cli][play]") {
  RunResult r = run_seedrl({"play", "--env", "minatar:pong"});
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("minatar:breakout"));
  RunResult p = run_seedrl({"play", "--policy", "const:7"});
  CHECK(p.status == 2);
  CHECK_THAT(p.output, Catch::Contains("--policy"));
}

TEST_CASE("play --render draws every observation with its action and reward", "[cli][play]") {
  // Breakout's first frame: three full brick rows (channel 3, 'd') and the
  // paddle (channel 0, 'a') in column 4 of the bottom row.
  RunResult r = run_seedrl({"play", "--env", "minatar:breakout", "--policy", "const:0", "--episodes", "1", "--seed",
                            "2", "--json", "--render"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("legend: '.' empty, a paddle, b ball, c trail, d brick"));
  CHECK_THAT(r.output, Catch::Contains("episode 0 step 0\n..........\ndddddddddd\ndddddddddd\ndddddddddd\n"));
  // The reference's action_map: 0 'n', 1 'l', 2 'u', 3 'r', 4 'd', 5 'f'.
  CHECK_THAT(r.output, Catch::Contains("....a.....\naction 0 (noop) reward 0"));
  CHECK_THAT(r.output, Catch::Contains("terminated"));
  // One drawn frame per step.
  std::size_t frames = 0;
  for (std::size_t at = r.output.find("episode 0 step "); at != std::string::npos;
       at = r.output.find("episode 0 step ", at + 1))
    ++frames;
  const auto json_at = r.output.find("{\"env\"");
  REQUIRE(json_at != std::string::npos);
  auto j = nlohmann::json::parse(r.output.substr(json_at, r.output.find('\n', json_at) - json_at));
  CHECK(static_cast<double>(frames) == j["episode_length_mean"].get<double>());
}

TEST_CASE("play --render counts steps per episode", "[cli][play]") {
  RunResult r = run_seedrl(
      {"play", "--env", "cartpole", "--policy", "const:0", "--episodes", "3", "--seed", "2", "--json", "--render"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto json_at = r.output.find("{\"env\"");
  REQUIRE(json_at != std::string::npos);
  const auto j = nlohmann::json::parse(r.output.substr(json_at, r.output.find('\n', json_at) - json_at));
  // Each episode starts at step 0, and its last drawn step is its length - 1.
  std::int64_t steps = 0;
  for (int e = 0; e < 3; ++e) {
    const std::string first = "episode " + std::to_string(e) + " step 0\n";
    CHECK_THAT(r.output, Catch::Contains(first));
    std::int64_t last = -1;
    for (std::size_t at = r.output.find("episode " + std::to_string(e) + " step "); at != std::string::npos;
         at = r.output.find("episode " + std::to_string(e) + " step ", at + 1))
      last = std::stoll(r.output.substr(at + first.size() - 2));
    steps += last + 1;
  }
  CHECK(static_cast<double>(steps) == Approx(3 * j["episode_length_mean"].get<double>()));
}

TEST_CASE("play --render names CartPole's observation entries and actions", "[cli][play]") {
  // Gymnasium's CartPole: observation (cart position, cart velocity, pole
  // angle, pole angular velocity); action 0 pushes left, 1 right.
  RunResult r =
      run_seedrl({"play", "--env", "cartpole", "--policy", "const:1", "--episodes", "1", "--seed", "3", "--render"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("episode 0 step 0\ncart_position="));
  CHECK_THAT(r.output, Catch::Contains(" cart_velocity=") && Catch::Contains(" pole_angle=") &&
                           Catch::Contains(" pole_angular_velocity="));
  CHECK_THAT(r.output, Catch::Contains("action 1 (push_right) reward 1"));
  CHECK_THAT(r.output, !Catch::Contains("legend"));  // vectors carry their names inline
}
