// `play --record` and `eval --record`: the GIF holds one frame per reset and
// per step (episodes + steps frames), each the env's own picture.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "../video/gif_decode.h"
#include "one_line_error.h"
#include "run_binary.h"

using namespace seedrl::test;

namespace {

// Frames a play of `j`'s episodes leaves: every step and every reset.
int expected_frames(const nlohmann::json& j) {
  const int episodes = j["episodes"].get<int>();
  return episodes + static_cast<int>(std::lround(j["episode_length_mean"].get<double>() * episodes));
}

}  // namespace

TEST_CASE("play --record writes a GIF of every step of every episode", "[cli][record]") {
  const std::string dir = temp_dir("play_record");
  for (const auto& [env, height, width, delay] :
       {std::tuple{"minatar:breakout", 100, 100, 10}, std::tuple{"cartpole", 400, 600, 2}}) {
    CAPTURE(env);
    const std::string path = dir + "/" + std::string(env).substr(std::string(env).find(':') + 1) + ".gif";
    RunResult r = run_seedrl({"play", "--env", env, "--episodes", "3", "--seed", "4", "--json", "--record", path});
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.output);
    const auto frames = decode_gif(path);
    CHECK(static_cast<int>(frames.size()) == expected_frames(j));
    CHECK(frames.front().image.height == height);
    CHECK(frames.front().image.width == width);
    CHECK(frames.front().delay_cs == delay);
  }
}

TEST_CASE("play --record-max-frames caps the GIF and says so", "[cli][record]") {
  const std::string path = temp_dir("play_record_cap") + "/cap.gif";
  RunResult r = run_seedrl(
      {"play", "--env", "minatar:breakout", "--episodes", "2", "--record", path, "--record-max-frames", "5"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(decode_gif(path).size() == 5);
  CHECK_THAT(r.output, Catch::Contains("recorded the first 5 of"));
  CHECK_THAT(r.output, Catch::Contains("--record: wrote 5 frames to " + path));
}

TEST_CASE("play --record: an unwritable path or an env without renderer is one line", "[cli][record]") {
  const std::string dir = temp_dir("play_record_bad");
  check_one_line_error({"play", "--env", "cartpole", "--episodes", "1", "--record", dir + "/missing/x.gif"},
                       "--record: cannot write " + dir + "/missing/x.gif");
  check_one_line_error({"play", "--env", "cartpole", "--episodes", "1", "--record", dir}, "--record: " + dir);
  check_one_line_error({"play", "--env", "synthetic:atari", "--episodes", "1", "--record", dir + "/s.gif"},
                       "--record: synthetic:atari has no renderer");
  CHECK_FALSE(std::filesystem::exists(dir + "/s.gif"));
}

TEST_CASE("eval --record writes the checkpoint policy's episodes", "[cli][record]") {
  const std::string dir = temp_dir("eval_record");
  RunResult t = run_seedrl(
      {"train", "--env", "cartpole", "--max-frames", "2000", "--actors", "2", "--batch-size", "2", "--logdir", dir});
  INFO(t.output);
  REQUIRE(t.status == 0);
  RunResult r = run_seedrl(
      {"eval", "--checkpoint", dir + "/checkpoint.pt", "--episodes", "2", "--json", "--record", dir + "/eval.gif"});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(static_cast<int>(decode_gif(dir + "/eval.gif").size()) == expected_frames(nlohmann::json::parse(r.output)));
  check_one_line_error({"eval", "--checkpoint", dir + "/checkpoint.pt", "--record", dir + "/no/e.gif"},
                       "--record: cannot write " + dir + "/no/e.gif");
}
