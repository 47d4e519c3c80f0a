#include "seedrl/cli/env_defaults.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "seedrl/cli/config_file.h"
#include "seedrl/env/registry.h"
#include "seedrl/model/torso.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/util/bf16_faster.h"

namespace seedrl {
namespace {

struct VTraceEnvDefaults {
  const char* env;  // a name, or a family's prefix ending in ':'
  std::optional<double> reward_scale;
  std::optional<double> entropy_cost;
  int envs_per_actor;
};

// CartPole pays +1 per step for up to 500 steps, so at discount 0.99 values
// reach ~100 and the value loss's gradient swamps the policy's in the shared
// torso. Scaling rewards by 0.1 (entropy cost scaled with them, keeping its
// weight against the advantages) fixes that: every seed learned at least as
// well as with the global defaults (bench/RESULTS.md).
// Cheap envs are bound by the round trip to inference, so each actor thread
// steps several. A CartPole step costs far less than an actor thread's round
// trip (sleep, wake-up, a CPU again), so with one env per thread the CPU goes
// to context switches; with 8 the pipeline is bound by the learner instead,
// and it learns as well per frame.
// A MinAtar step is also far cheaper than the round trip. With one env per
// thread Breakout's pipeline split between a fast and a slow schedule; with 4
// the inference stage keeps up and the pipeline runs at the learner's rate,
// and training ends where it did. Figures: bench/RESULTS.md. The tuned
// configs/minatar-*.toml set their own.
const VTraceEnvDefaults kVTraceEnvDefaults[] = {
    {"cartpole", 0.1, 0.001, 8},
    {"minatar:", std::nullopt, std::nullopt, 4},
};

bool matches(std::string_view pattern, const std::string& env) {
  if (!pattern.empty() && pattern.back() == ':') return env.rfind(pattern, 0) == 0;
  return env == pattern;
}

}  // namespace

void apply_env_defaults(const CLI::App& cmd, TrainConfig& c) {
  // --model auto on an Atari-sized image with a CPU learner: IMPALA's shallow
  // net. The deep ResNet trains at a few hundred frames/s on a laptop's cores
  // (hours per Pong); a GPU learner keeps it. The choice is written into the
  // run's config, so eval and play build the same net; a resume keeps the
  // checkpoint's.
  if (c.model.torso == "auto" && !c.resume) {
    const ArraySpec obs = EnvRegistry::builtin().spec(c.env, c.env_options).observation;
    if (resolve_torso(obs, "auto") == "impala" && !resolve_placement(c).learner.front().is_cuda()) {
      c.model.torso = "impala-shallow";
      c.start_notes.push_back("--model auto: impala-shallow for " + c.env +
                              " on a CPU learner (IMPALA's deep ResNet: --model impala)");
    }
  }
  // --precision auto: bfloat16 where it pays, an image torso or SAC's
  // learner (its hidden layers' matmuls; V-trace's and R2D2's MLP computes in
  // float32 only), on devices whose bfloat16 matrix products outrun float32's;
  // float32 elsewhere. The choice is written into the run's config, as the
  // model's.
  if (c.model.precision == "auto") {
    const ArraySpec obs = EnvRegistry::builtin().spec(c.env, c.env_options).observation;
    const Placement placement = resolve_placement(c);
    std::vector<torch::Device> devices = placement.inference;
    devices.insert(devices.end(), placement.learner.begin(), placement.learner.end());
    const bool image = resolve_torso(obs, c.model.torso) != "mlp";
    const bool sac = c.algo == "sac";
    const bool faster = std::all_of(devices.begin(), devices.end(), bf16_faster);
    c.model.precision = (image || sac) && faster ? "bf16" : "fp32";
    std::string why;
    if (!image && !sac)
      why = "the MLP torso computes in float32";
    else if (!faster)
      why =
          "not every device runs bfloat16 matmuls faster than float32's, as AMX, AVX512-BF16 on a non-Intel "
          "CPU or a GPU of compute capability 8.0+ do: " +
          placement.describe();
    else
      why =
          std::string(sac ? "SAC's hidden-layer matmuls; " : "") + "bfloat16 matmuls outrun float32's on every device";
    c.start_notes.push_back("--precision auto: " + c.model.precision + " (" + why + ")");
  }
  if (c.algo != "vtrace") return;
  for (const auto& d : kVTraceEnvDefaults) {
    if (!matches(d.env, c.env)) continue;
    if (d.reward_scale && !flag_given(cmd, "--reward-scale")) c.learner.loss.reward_scale = *d.reward_scale;
    if (d.entropy_cost && !flag_given(cmd, "--entropy-cost")) c.learner.loss.entropy_cost = *d.entropy_cost;
    if (!flag_given(cmd, "--envs-per-actor")) c.envs_per_actor = d.envs_per_actor;
  }
}

}  // namespace seedrl
