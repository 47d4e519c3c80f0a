// A run whose learner's weights stop being finite ends with one line that
// is true of it: it names the checkpoint as keeping the last finite weights
// only when there is one, and suggests only flags the algorithm reads (SAC
// refuses --max-grad-norm).
#include <catch2/catch.hpp>

#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>

#include <torch/torch.h>

#include "../cli/run_binary.h"
#include "seedrl/trainer/non_finite_weights.h"
#include "seedrl/trainer/run_checkpoint.h"

using namespace seedrl;

namespace {

// What RunCheckpoint::save reads of a learner (and its constructor names).
struct TinyLearner {
  torch::nn::Linear net{2, 1};
  torch::optim::Adam adam{net->parameters(), torch::optim::AdamOptions(1e-3)};
  torch::nn::Linear& model() { return net; }
  torch::optim::Optimizer& optimizer() { return adam; }
  std::int64_t steps() const { return 7; }
  std::int64_t frames() const { return 70; }
  void sync_replicas() {}  // one replica
  void poison() {
    torch::NoGradGuard no_grad;
    net->weight.view(-1)[0] = std::numeric_limits<float>::quiet_NaN();
  }
};

std::string save_error(RunCheckpoint<TinyLearner>& checkpoint) {
  try {
    checkpoint.save({});
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the non-finite weights error names a checkpoint only when one is kept", "[trainer][checkpoint]") {
  CHECK(non_finite_weights_error("weights", "vtrace", 12, "runs/a/checkpoint.pt", true) ==
        "the learner's weights are no longer finite (NaN or infinity) after 12 steps; runs/a/checkpoint.pt keeps the "
        "last finite weights (a lower --learning-rate or --max-grad-norm may help)");
  CHECK(non_finite_weights_error("loss", "r2d2", 3, "runs/a/checkpoint.pt", false) ==
        "the learner's loss is no longer finite (NaN or infinity) after 3 steps; none was saved before, so the run "
        "leaves no checkpoint (a lower --learning-rate or --max-grad-norm may help)");
  const std::string sac = non_finite_weights_error("weights", "sac", 5, "runs/a/checkpoint.pt", false);
  CHECK_THAT(sac, !Catch::Contains("--max-grad-norm") && !Catch::Contains("checkpoint.pt") &&
                      Catch::Contains("--learning-rate or --reward-scale"));
}

TEST_CASE("RunCheckpoint::save refuses non-finite weights with a message true of the run", "[trainer][checkpoint]") {
  for (const char* algo : {"sac", "vtrace"}) {
    INFO(algo);
    TrainConfig config;
    config.algo = algo;
    config.logdir = test::temp_dir("non_finite_weights");
    const std::string path = checkpoint_path(config.logdir);
    TinyLearner learner;
    RunCheckpoint<TinyLearner> checkpoint(config, learner);
    // Before any save: no checkpoint to speak of.
    learner.poison();
    const std::string first = save_error(checkpoint);
    CHECK_THAT(first, Catch::StartsWith("the learner's weights are no longer finite (NaN or infinity) after 7 steps; "
                                        "none was saved before"));
    CHECK_FALSE(std::filesystem::exists(path));
    // Finite weights are saved; NaN ones after them leave that file.
    TinyLearner finite;
    RunCheckpoint<TinyLearner> saving(config, finite);
    saving.save({});
    REQUIRE(std::filesystem::exists(path));
    const auto size = std::filesystem::file_size(path);
    finite.poison();
    const std::string later = save_error(saving);
    CHECK_THAT(later, Catch::Contains("; " + path + " keeps the last finite weights"));
    CHECK(std::filesystem::file_size(path) == size);
    // Only flags the algorithm reads.
    if (std::string(algo) == "sac")
      CHECK_THAT(later, Catch::EndsWith("(a lower --learning-rate or --reward-scale may help)"));
    else
      CHECK_THAT(later, Catch::EndsWith("(a lower --learning-rate or --max-grad-norm may help)"));
  }
}

TEST_CASE("a run whose loss stops being finite ends at once, not at its next checkpoint",
          "[trainer][checkpoint][cli]") {
  // A learning rate no network survives: the loss is NaN within a few steps.
  // Without the check the run would go on to --max-frames on NaN weights.
  const auto [algo, env] =
      GENERATE(table<const char*, const char*>({{"vtrace", "cartpole"}, {"r2d2", "cartpole"}, {"sac", "pendulum"}}));
  INFO(algo);
  const std::string dir = test::temp_dir("non_finite_loss");
  const test::RunResult r =
      test::run_seedrl({"train", "--algo", algo, "--env", env, "--learning-rate", "1e30", "--max-frames", "100000000",
                        "--checkpoint-every-s", "100000", "--logdir", dir});
  INFO(r.output);
  CHECK(r.status == 1);
  // The learner's loss, or (R2D2) the acting Q-values of the weights it
  // published, whichever thread sees it first.
  CHECK_THAT(r.output, (Catch::Contains("the learner's loss is no longer finite (NaN or infinity) after ") ||
                        Catch::Contains("the learner's weights are no longer finite (NaN or infinity) after ")) &&
                           Catch::Contains("none was saved before"));
  CHECK_FALSE(std::filesystem::exists(checkpoint_path(dir)));
}
