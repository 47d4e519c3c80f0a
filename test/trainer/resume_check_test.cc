// --resume refuses a checkpoint whose env, network or optimizer differs from
// the run's, naming the flag; settings that do not shape the agent may change.
#include <catch2/catch.hpp>

#include "../cli/run_binary.h"
#include "seedrl/trainer/resume_check.h"

using namespace seedrl;
using namespace seedrl::test;

TEST_CASE("resume_mismatch names the first flag that changes the agent", "[trainer][resume]") {
  TrainConfig saved;
  TrainConfig run = saved;
  run.actors = 64;
  run.learner.optimizer.learning_rate = 0.1;
  run.learner.max_frames = 1;
  run.model.torso = "mlp";  // what "auto" resolves to for CartPole
  CHECK(resume_mismatch(saved, run).empty());

  run = saved;
  run.env = "acrobot";
  CHECK(resume_mismatch(saved, run) == "--env acrobot differs from the checkpoint's cartpole");
  run = saved;
  run.env_options.frame_stack = 4;
  CHECK(resume_mismatch(saved, run) == "--frame-stack 4 differs from the checkpoint's 1");
  run = saved;
  run.model.hidden = {32};
  CHECK(resume_mismatch(saved, run) == "--hidden 32 differs from the checkpoint's 64 64");
  run = saved;
  run.model.lstm = true;
  CHECK(resume_mismatch(saved, run) == "--lstm on differs from the checkpoint's off");
  run = saved;
  run.learner.optimizer.name = "rmsprop";
  CHECK(resume_mismatch(saved, run) == "--optimizer rmsprop differs from the checkpoint's adam");
  run = saved;
  run.algo = "r2d2";
  CHECK(resume_mismatch(saved, run) == "--algo r2d2 differs from the checkpoint's vtrace");

  // The MinAtar torso has no --hidden layers: changing them changes nothing.
  saved.env = run.env = "minatar:breakout";
  run.algo = saved.algo;
  run.model.hidden = {7};
  CHECK(resume_mismatch(saved, run).empty());
}

TEST_CASE("train --resume in a logdir of another env fails in one line and keeps the checkpoint",
          "[trainer][resume][cli]") {
  const std::string dir = temp_dir("resume_other_env");
  RunResult first = run_seedrl({"train", "--actors", "2", "--max-frames", "5000", "--logdir", dir});
  REQUIRE(first.status == 0);
  const std::string before = read_file(dir + "/checkpoint.pt");
  RunResult second =
      run_seedrl({"train", "--actors", "2", "--max-frames", "10000", "--logdir", dir, "--resume", "--env", "acrobot"});
  CHECK(second.status == 2);
  CHECK_THAT(second.output, Catch::Contains("--resume: --env acrobot differs from the checkpoint's cartpole"));
  CHECK_THAT(second.output, !Catch::Contains("frame #"));
  CHECK(read_file(dir + "/checkpoint.pt") == before);
}
