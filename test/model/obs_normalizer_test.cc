#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include <torch/torch.h>

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
