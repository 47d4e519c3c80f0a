// Rollouts of Seaquest and Space Invaders for comparing our dynamics with the
// reference implementation (test/env/minatar_compare_scripted.py drives this).
// Hidden: run it as
//   SEEDRL_ROLLOUT="minatar:seaquest,random,200,1[,sticky[,ramping]]" \
//     seedrl_env_tests "[.rollout-scripted]"
// Prints "episode <i> <return> <length>" per episode. Policies: random,
// const<k> (always action k), scripted (a simple per-game controller that
// reads only the observation; the script implements the same one on the
// reference's state()), noisy (scripted, but a uniform random action with
// probability 0.25). Both sides cut an episode at kCap steps.
// With SEEDRL_ROLLOUT_TRACE=1 it also prints every observation ("obs <hex>",
// the 0/1 cells packed 4 to a hex digit) and step ("step <action> <reward>
// <terminated>"): the script replays the reference with a port of our Rng
// and demands the identical trace.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "minatar_scripted_policies.h"
#include "seedrl/env/minatar/seaquest.h"
#include "seedrl/env/minatar/space_invaders.h"
#include "seedrl/util/rng.h"

using namespace seedrl;
using seedrl::minatar_scripted::seaquest_policy;
using seedrl::minatar_scripted::space_invaders_policy;
using seedrl::minatar_scripted::View;

namespace {

constexpr long kCap = 3000;

void print_obs(const std::vector<std::uint8_t>& obs) {
  std::string hex;
  hex.reserve(obs.size() / 4);
  for (std::size_t i = 0; i < obs.size(); i += 4)
    hex.push_back("0123456789abcdef"[obs[i] * 8 + obs[i + 1] * 4 + obs[i + 2] * 2 + obs[i + 3]]);
  std::printf("obs %s\n", hex.c_str());
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string f; std::getline(ss, f, ',');) out.push_back(f);
  return out;
}

}  // namespace

TEST_CASE("seaquest and space invaders rollouts for the reference comparison", "[.rollout-scripted]") {
  const char* spec = std::getenv("SEEDRL_ROLLOUT");
  if (spec == nullptr) {
    WARN("set SEEDRL_ROLLOUT=name,policy,episodes,seed[,sticky[,ramping]]");
    return;
  }
  const auto f = split(spec);
  REQUIRE(f.size() >= 4);
  EnvOptions options;
  if (f.size() > 4) options.sticky_action_prob = std::stod(f[4]);
  if (f.size() > 5) options.difficulty_ramping = std::stoi(f[5]) != 0;
  const bool seaquest = f[0] == "minatar:seaquest";
  REQUIRE((seaquest || f[0] == "minatar:space_invaders"));
  EnvPtr env;
  if (seaquest)
    env = std::make_unique<minatar::Seaquest>(options);
  else
    env = std::make_unique<minatar::SpaceInvaders>(options);
  const std::string policy = f[1];
  const int episodes = std::stoi(f[2]);
  const std::uint64_t seed = std::stoull(f[3]);
  const int channels = static_cast<int>(env->spec().observation.shape[2]);
  std::vector<std::uint8_t> obs(env->spec().observation.bytes());
  Rng policy_rng(derive_seed(seed, 1));
  const View view{obs.data(), channels};

  REQUIRE((policy == "random" || policy.rfind("const", 0) == 0 || policy == "scripted" || policy == "noisy"));

  auto choose = [&]() -> int {
    if (policy == "random") return static_cast<int>(policy_rng.below(6));
    if (policy.rfind("const", 0) == 0) return std::stoi(policy.substr(5));
    if (policy == "noisy" && policy_rng.uniform() < 0.25) return static_cast<int>(policy_rng.below(6));
    return seaquest ? seaquest_policy(view) : space_invaders_policy(view);
  };

  const char* trace_env = std::getenv("SEEDRL_ROLLOUT_TRACE");
  const bool trace = trace_env != nullptr && std::string(trace_env) == "1";
  for (int ep = 0; ep < episodes; ++ep) {
    if (ep == 0)
      env->reset(seed, obs.data());
    else
      env->reset(std::nullopt, obs.data());
    if (trace) print_obs(obs);
    double ret = 0;
    long length = 0;
    StepResult r;
    do {
      const int a = choose();
      r = env->step(Action{a, nullptr}, obs.data());
      ret += r.reward;
      ++length;
      if (trace) {
        std::printf("step %d %g %d\n", a, r.reward, r.terminated ? 1 : 0);
        print_obs(obs);
      }
    } while (!r.terminated && !r.truncated && length < kCap);
    std::printf("episode %d %g %ld\n", ep, ret, length);
  }
  std::fflush(stdout);
}
