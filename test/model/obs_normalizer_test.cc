#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include <torch/torch.h>

#include "seedrl/model/agent_net.h"
#include "seedrl/model/obs_normalizer.h"

using namespace seedrl;

TEST_CASE("observation normaliser matches the moments of all data seen", "[model][normalizer]") {
  ObsNormalizer norm(3);
  std::mt19937 gen(7);
  std::normal_distribution<double> d0(5.0, 2.0), d1(-1.0, 0.1), d2(100.0, 30.0);
  std::vector<std::vector<double>> all(3);
  for (int batch : {1, 17, 256, 3, 1000}) {
    auto x = torch::empty({batch, 3}, torch::kFloat32);
    for (int i = 0; i < batch; ++i) {
      const double v[3] = {d0(gen), d1(gen), d2(gen)};
      for (int j = 0; j < 3; ++j) {
        x[i][j] = static_cast<float>(v[j]);
        all[j].push_back(static_cast<double>(static_cast<float>(v[j])));
      }
    }
    norm->update(x);
  }
  CHECK(norm->count() == 1277);
  for (int j = 0; j < 3; ++j) {
    double m = 0, v = 0;
    for (double a : all[j]) m += a;
    m /= static_cast<double>(all[j].size());
    for (double a : all[j]) v += (a - m) * (a - m);
    v /= static_cast<double>(all[j].size());
    CHECK(norm->mean()[j].item<double>() == Approx(m).epsilon(1e-9));
    CHECK(norm->var()[j].item<double>() == Approx(v).epsilon(1e-9));
  }
  // Applying it standardises and clips.
  auto probe = torch::tensor({{5.0f, -1.0f, 1e6f}});
  auto y = norm->forward(probe);
  CHECK(std::abs(y[0][0].item<float>()) < 0.2);
  CHECK(y[0][2].item<float>() == 10.0f);
}

TEST_CASE("normalize_obs puts the normaliser in the agent: checkpointed, applied before the torso",
          "[model][normalizer]") {
  EnvSpec env;
  env.name = "test";
  env.observation = ArraySpec{{3}, DType::kFloat32};
  env.action = ActionSpec::discrete(2);
  ModelConfig plain_config, norm_config;
  norm_config.normalize_obs = true;
  torch::manual_seed(1);
  AgentNet plain(env, plain_config, 2);
  AgentNet normed(env, norm_config, 2);
  {
    torch::NoGradGuard no_grad;
    auto src = plain->parameters(), dst = normed->parameters();
    REQUIRE(src.size() == dst.size());  // the normaliser adds buffers only
    for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
  }
  bool has_mean = false;
  for (const auto& b : normed->named_buffers()) has_mean |= b.key() == "obs_normalizer.mean";
  CHECK(has_mean);  // saved with the weights, copied to inference with them

  auto data = torch::randn({4, 8, 3}, torch::kFloat64) * torch::tensor({2.0, 0.5, 30.0}, torch::kFloat64) +
              torch::tensor({5.0, -1.0, 100.0}, torch::kFloat64);
  normed->update_obs_normalizer(data.to(torch::kFloat32));
  // Reference, in double: population moments of everything seen.
  auto flat = data.to(torch::kFloat32).to(torch::kFloat64).view({-1, 3});
  auto mean = flat.mean(0), var = flat.var(0, /*unbiased=*/false);
  auto obs = data.slice(0, 0, 2).to(torch::kFloat32);
  auto first = torch::zeros({2, 8}, torch::kUInt8);
  auto scaled = ((obs.to(torch::kFloat64) - mean) / (var + 1e-8).sqrt()).clamp(-10, 10).to(torch::kFloat32);
  torch::NoGradGuard no_grad;
  auto a = normed->forward(obs, first, {});
  auto b = plain->forward(scaled, first, {});
  CHECK(torch::allclose(a.policy, b.policy, 1e-5, 1e-5));
  CHECK(torch::allclose(a.value, b.value, 1e-5, 1e-5));
  // Images are not normalised: refused, naming the flag.
  CHECK_THROWS_WITH(
      AgentNet(EnvSpec{"img", ArraySpec{{4, 4, 1}, DType::kUInt8}, ActionSpec::discrete(2)}, norm_config, 2),
      Catch::Contains("--normalize-obs"));
}
