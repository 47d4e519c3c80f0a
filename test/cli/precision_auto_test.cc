// --precision auto: bfloat16 only where the devices' bfloat16 matmuls outrun
// float32's (read here from the kernel's own CPU flags and vendor) and the
// torso is an image one or the learner SAC's; float32 elsewhere, and the run
// says which.
#include <catch2/catch.hpp>

#include <string>

#include <torch/types.h>

#include "../util/cpuinfo_flags.h"
#include "run_binary.h"
#include "seedrl/util/bf16_faster.h"

TEST_CASE("--precision auto picks bf16 only for an image torso or SAC on a CPU whose bfloat16 is faster",
          "[cli][precision]") {
  const std::string flags = seedrl::test::cpuinfo_flags();
  const bool instructions =
      seedrl::test::cpuinfo_has(flags, "avx512_bf16") || seedrl::test::cpuinfo_has(flags, "amx_bf16");
  const bool faster = seedrl::test::cpuinfo_bf16_faster();
  CHECK(seedrl::bf16_faster(torch::Device(torch::kCPU)) == faster);

  const std::string image_dir = seedrl::test::temp_dir("precision_auto_image");
  const auto image = seedrl::test::run_seedrl({"train", "--env", "minatar:breakout", "--precision", "auto",
                                               "--max-frames", "2000", "--logdir", image_dir, "--report-every-s", "0"});
  INFO(image.output);
  REQUIRE(image.status == 0);
  CHECK_THAT(image.output, Catch::Contains(faster ? "--precision auto: bf16" : "--precision auto: fp32"));
  // Resolved before the run: the warnings for bf16 where it is slower never show.
  CHECK_THAT(image.output, !Catch::Contains("emulated there") && !Catch::Contains("likely slower"));

  // Asked for by hand where it does not pay, bf16 runs with a warning that says why.
  const std::string forced_dir = seedrl::test::temp_dir("precision_forced_bf16");
  const auto forced =
      seedrl::test::run_seedrl({"train", "--env", "minatar:breakout", "--precision", "bf16", "--max-frames", "2000",
                                "--logdir", forced_dir, "--report-every-s", "0"});
  INFO(forced.output);
  REQUIRE(forced.status == 0);
  CHECK((forced.output.find("emulated there") != std::string::npos) == !instructions);
  CHECK((forced.output.find("AVX512-BF16 without AMX") != std::string::npos) == (instructions && !faster));

  const std::string mlp_dir = seedrl::test::temp_dir("precision_auto_mlp");
  const auto mlp = seedrl::test::run_seedrl({"train", "--env", "cartpole", "--precision", "auto", "--max-frames",
                                             "2000", "--logdir", mlp_dir, "--report-every-s", "0"});
  INFO(mlp.output);
  REQUIRE(mlp.status == 0);
  CHECK_THAT(mlp.output, Catch::Contains("--precision auto: fp32 (the MLP torso"));

  // SAC's learner takes its hidden layers' matmuls in bfloat16 where the CPU
  // has the instructions, MLP or not.
  const std::string sac_dir = seedrl::test::temp_dir("precision_auto_sac");
  const auto sac =
      seedrl::test::run_seedrl({"train", "--algo",           "sac", "--env",          "pendulum", "--precision",
                                "auto",  "--max-frames",     "300", "--random-steps", "100",      "--min-replay",
                                "100",   "--batch-size",     "16",  "--hidden",       "16,16",    "--logdir",
                                sac_dir, "--report-every-s", "0"});
  INFO(sac.output);
  REQUIRE(sac.status == 0);
  CHECK_THAT(sac.output, Catch::Contains(faster ? "--precision auto: bf16 (SAC's" : "--precision auto: fp32 (not"));

  const auto bad = seedrl::test::run_seedrl({"train", "--env", "cartpole", "--precision", "fp16"});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("--precision") && Catch::Contains("auto"));
}
