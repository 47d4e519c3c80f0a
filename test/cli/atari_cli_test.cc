// atari:<game> from the command line: listing, ROM errors, play --render, and
// a learner fed by `seedrl actor --env atari:pong` over loopback. Compiled
// only when CMake found ALE and the ROMs (SEEDRL_TEST_ATARI_ROMS).
#include <catch2/catch.hpp>
#include <sstream>

#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "../util/free_port.h"
#include "../video/gif_decode.h"
#include "one_line_error.h"
#include "run_binary.h"

using namespace seedrl::test;

namespace {
const std::string kRoms = SEEDRL_TEST_ATARI_ROMS;

}  // namespace

TEST_CASE("seedrl envs lists a game per ROM, or says where to put them", "[cli][atari]") {
  RunResult r = run_seedrl({"envs", "--rom-dir", kRoms});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("atari:pong") && Catch::Contains("atari:space_invaders") &&
                           Catch::Contains("uint8[84,84,4]") && Catch::Contains("discrete(18)"));
  CHECK_THAT(r.output, !Catch::Contains("A.L.E"));  // ALE's banner stays off the terminal

  RunResult none = run_seedrl({"envs", "--rom-dir", temp_dir("atari_no_roms")});
  INFO(none.output);
  REQUIRE(none.status == 0);
  CHECK_THAT(none.output, Catch::Contains("atari:<game>") && Catch::Contains("--rom-dir"));
}

TEST_CASE("a missing Atari ROM is one line naming the game, the directory and the flag", "[cli][atari]") {
  const std::string dir = temp_dir("atari_missing_rom");
  const RunResult r = check_one_line_error({"play", "--env", "atari:pong", "--rom-dir", dir}, "atari:pong");
  CHECK_THAT(r.output, Catch::Contains(dir) && Catch::Contains("--rom-dir"));
}

TEST_CASE("play --render draws atari:pong's preprocessed frames", "[cli][atari][play]") {
  RunResult r = run_seedrl({"play", "--env", "atari:pong", "--rom-dir", kRoms, "--episodes", "1", "--seed", "1",
                            "--max-episode-frames", "400", "--json", "--render"},
                           120);
  INFO(r.output.substr(0, 4000));
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, !Catch::Contains("A.L.E"));
  CHECK_THAT(r.output, Catch::Contains("legend: gray(t) in shades"));
  // Every action taken is named as Gymnasium's get_action_meanings() names
  // the full action set.
  const std::vector<std::string> meanings = {"NOOP",       "FIRE",          "UP",          "RIGHT",     "LEFT",
                                             "DOWN",       "UPRIGHT",       "UPLEFT",      "DOWNRIGHT", "DOWNLEFT",
                                             "UPFIRE",     "RIGHTFIRE",     "LEFTFIRE",    "DOWNFIRE",  "UPRIGHTFIRE",
                                             "UPLEFTFIRE", "DOWNRIGHTFIRE", "DOWNLEFTFIRE"};
  int named = 0;
  for (auto at = r.output.find("\naction "); at != std::string::npos; at = r.output.find("\naction ", at + 1)) {
    std::istringstream line(r.output.substr(at + 8, r.output.find('\n', at + 1) - at - 8));
    std::size_t index = 0;
    std::string label;
    line >> index >> label;
    REQUIRE(index < meanings.size());
    CHECK(label == "(" + meanings[index] + ")");
    ++named;
  }
  CHECK(named >= 90);
  // Frames of 84 rows of 84 shades.
  const auto at = r.output.find("episode 0 step 1\n");
  REQUIRE(at != std::string::npos);
  const auto row_end = r.output.find('\n', at + 17);
  CHECK(row_end - (at + 17) == 84);
  const auto json_at = r.output.find("{\"env\"");
  REQUIRE(json_at != std::string::npos);
  const auto j = nlohmann::json::parse(r.output.substr(json_at, r.output.find('\n', json_at) - json_at));
  // 400 emulator frames, 1 to 30 of them no-ops, 4 per step.
  CHECK(j["episode_length_mean"].get<double>() <= 100);
  CHECK(j["episode_length_mean"].get<double>() >= 93);
}

TEST_CASE("seedrl actor --env atari:pong feeds a learner over loopback", "[cli][atari][net][slow]") {
  const std::string dir = temp_dir("atari_remote");
  const std::string addr = "127.0.0.1:" + std::to_string(free_port());
  RunResult learner, actor;
  std::thread l([&] {
    learner = run_seedrl({"train", "--env",           "atari:pong", "--rom-dir",        kRoms, "--max-episode-frames",
                          "400",   "--actors",        "0",          "--remote-actors",  addr,  "--max-frames",
                          "600",   "--unroll-length", "10",         "--batch-size",     "2",   "--inference-batch",
                          "2",     "--logdir",        dir,          "--log-interval-s", "1",   "--checkpoint-every-s",
                          "0",     "--seed",          "5"},
                         300);
  });
  std::thread a([&] {
    actor = run_seedrl({"actor", "--connect", addr, "--env", "atari:pong", "--rom-dir", kRoms, "--max-episode-frames",
                        "400", "--actors", "2", "--envs-per-actor", "1"},
                       300);
  });
  l.join();
  a.join();
  INFO(learner.output);
  INFO(actor.output);
  REQUIRE(learner.status == 0);
  CHECK(actor.status == 0);
  CHECK_THAT(actor.output, Catch::Contains("training finished"));
  const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s["frames"].get<double>() >= 600);
  CHECK(s["atari_frames"].get<double>() == 4 * s["frames"].get<double>());
  // Episodes of at most 400 emulator frames came back whole.
  CHECK(s["episodes"].get<double>() >= 1);
  CHECK(s["episode_length_mean"].get<double>() <= 100);

  // eval finds the ROMs through --rom-dir on this machine (checkpoints do not
  // keep the directory), and names the flag when they are not there.
  const std::string ckpt = dir + "/checkpoint.pt";
  const RunResult e = run_seedrl({"eval", "--checkpoint", ckpt, "--rom-dir", kRoms, "--episodes", "1", "--greedy"});
  INFO(e.output);
  CHECK(e.status == 0);
  CHECK_THAT(e.output, Catch::Contains("atari:pong | 1 episodes | return"));
  const std::string empty = temp_dir("atari_eval_no_roms");
  const RunResult missing = check_one_line_error({"eval", "--checkpoint", ckpt, "--rom-dir", empty}, "--rom-dir");
  CHECK_THAT(missing.output, Catch::Contains(empty));
}

TEST_CASE("play --record on an Atari game writes ALE's 210x160 screens", "[cli][atari][record]") {
  const std::string path = temp_dir("atari_record") + "/pong.gif";
  RunResult r = run_seedrl({"play", "--env", "atari:pong", "--rom-dir", kRoms, "--episodes", "1", "--json",
                            "--max-episode-frames", "400", "--record", path});
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.output);
  const auto frames = decode_gif(path);
  CHECK(static_cast<int>(frames.size()) == 1 + static_cast<int>(j["episode_length_mean"].get<double>()));
  CHECK(frames.front().image.height == 210);
  CHECK(frames.front().image.width == 160);
  CHECK(frames.front().delay_cs == 7);  // 60 Hz over a frame skip of 4
}

TEST_CASE("train --env atari:pong with --model auto on a CPU learner takes the shallow net, and eval builds it too",
          "[cli][atari][train]") {
  const std::string dir = temp_dir("atari_auto_torso");
  RunResult r = run_seedrl({"train", "--env", "atari:pong", "--rom-dir", kRoms, "--max-frames", "300", "--actors", "2",
                            "--envs-per-actor", "1", "--batch-size", "2", "--max-episode-frames", "400", "--device",
                            "cpu", "--logdir", dir});
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("--model auto: impala-shallow for atari:pong on a CPU learner"));
  CHECK_THAT(read_file(dir + "/checkpoint.pt"), Catch::Contains("impala-shallow"));
  RunResult ev =
      run_seedrl({"eval", "--checkpoint", dir + "/checkpoint.pt", "--rom-dir", kRoms, "--episodes", "1", "--json"});
  INFO(ev.output);
  CHECK(ev.status == 0);
  // An explicit choice is kept.
  RunResult deep = run_seedrl({"train", "--env", "atari:pong", "--rom-dir", kRoms, "--model", "impala", "--max-frames",
                               "100", "--actors", "1", "--envs-per-actor", "1", "--batch-size", "1", "--logdir",
                               temp_dir("atari_deep_torso")});
  CHECK(deep.status == 0);
  CHECK_THAT(deep.output, !Catch::Contains("--model auto"));
}
