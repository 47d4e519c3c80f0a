// CpuMatmul against a double-precision loop written here: every product the
// MLP pass asks for (a transposed weight read in place, a transposed gradient,
// a column or row of width 1, a narrowed view), with and without a bias, for
// each activation; the same object through changing shapes; LibTorch's
// product for what oneDNN does not take; and shapes that do not chain.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <torch/torch.h>

#include "seedrl/learner/cpu_matmul.h"

using seedrl::CpuMatmul;

namespace {

// out[i][j] = act(sum_k a[i][k] b[k][j] + bias[j]) in double, element by element.
torch::Tensor matmul_reference(const torch::Tensor& a, const torch::Tensor& b, const torch::Tensor* bias,
                               CpuMatmul::Activation activation) {
  const torch::Tensor ad = a.to(torch::kFloat64).contiguous(), bd = b.to(torch::kFloat64).contiguous();
  const std::int64_t m = ad.size(0), k = ad.size(1), n = bd.size(1);
  torch::Tensor out = torch::empty({m, n}, torch::kFloat64);
  const double* ap = ad.data_ptr<double>();
  const double* bp = bd.data_ptr<double>();
  double* op = out.data_ptr<double>();
  const torch::Tensor biasd = bias ? bias->to(torch::kFloat64).contiguous() : torch::Tensor();
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = bias ? biasd.data_ptr<double>()[j] : 0.0;
      for (std::int64_t q = 0; q < k; ++q) s += ap[i * k + q] * bp[q * n + j];
      if (activation == CpuMatmul::Activation::kRelu) s = s > 0 ? s : 0;
      if (activation == CpuMatmul::Activation::kTanh) s = std::tanh(s);
      op[i * n + j] = s;
    }
  return out;
}

// Largest error relative to the sum of the magnitudes that made each entry:
// float32's rounding of a k-term sum stays near k 2^-24 of it.
double matmul_worst_error(const torch::Tensor& got, const torch::Tensor& a, const torch::Tensor& b,
                          const torch::Tensor* bias, CpuMatmul::Activation activation) {
  const torch::Tensor ref = matmul_reference(a, b, bias, activation);
  const torch::Tensor scale =
      torch::matmul(a.to(torch::kFloat64).abs(), b.to(torch::kFloat64).abs()) +
      (bias ? bias->to(torch::kFloat64).abs().unsqueeze(0) : torch::zeros({1}, torch::kFloat64)) + 1e-30;
  return ((got.to(torch::kFloat64) - ref).abs() / scale).max().item<double>();
}

const char* activation_name(CpuMatmul::Activation a) {
  return a == CpuMatmul::Activation::kNone ? "none" : a == CpuMatmul::Activation::kRelu ? "relu" : "tanh";
}

}  // namespace

TEST_CASE("CpuMatmul: products of strided views, with bias and activation, match a double-precision loop",
          "[learner][mlp]") {
  INFO("oneDNN: " << CpuMatmul::uses_onednn());
  torch::Generator g = at::detail::createCPUGenerator(31);
  const auto activation =
      GENERATE(CpuMatmul::Activation::kNone, CpuMatmul::Activation::kRelu, CpuMatmul::Activation::kTanh);
  const bool with_bias = GENERATE(false, true);
  INFO("activation " << activation_name(activation) << ", bias " << with_bias);
  CpuMatmul mm;  // one object through every shape below: it must follow each change
  struct Case {
    std::string what;
    torch::Tensor a, b;
  };
  const torch::Tensor w = torch::randn({48, 23}, g);   // a Linear layer's weight [out, in]
  const torch::Tensor x = torch::randn({37, 23}, g);   // its input rows
  const torch::Tensor gr = torch::randn({37, 48}, g);  // the gradient to its output
  const torch::Tensor wide = torch::randn({37, 60}, g);
  const Case cases[] = {
      {"x w^T (forward, transposed weight read in place)", x, w.t()},
      {"g^T x (weight gradient, transposed gradient)", gr.t(), x},
      {"g w (input gradient)", gr, w},
      {"a narrowed view's columns", wide.narrow(1, 5, 23), w.t()},
      {"an output column of width 1", x, w.narrow(0, 0, 1).t()},
      {"an inner size of 1", gr.narrow(1, 0, 1), w.narrow(0, 0, 1)},
      {"a single row", x.narrow(0, 3, 1), w.t()},
      {"an expanded row (stride 0), which oneDNN may refuse", x.narrow(0, 0, 1).expand({37, 23}), w.t()},
      {"x w^T again, after the others", x, w.t()},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::int64_t n = c.b.size(1);
    const torch::Tensor bias = torch::randn({n}, g);
    torch::Tensor out = torch::full({c.a.size(0), n}, std::nan(""));
    mm.run(out, c.a, c.b, with_bias ? &bias : nullptr, activation);
    CHECK(matmul_worst_error(out, c.a, c.b, with_bias ? &bias : nullptr, activation) < 1e-5);
    // Not vacuous: the entries vary, and ReLU leaves some zero and some not.
    CHECK(out.std().item<double>() > 0.01);
  }
}

TEST_CASE("CpuMatmul: double tensors take LibTorch's product exactly, and shapes that do not chain are refused",
          "[learner][mlp]") {
  torch::Generator g = at::detail::createCPUGenerator(32);
  const torch::Tensor a = torch::randn({5, 7}, g, torch::kFloat64), b = torch::randn({7, 3}, g, torch::kFloat64);
  const torch::Tensor bias = torch::randn({3}, g, torch::kFloat64);
  CpuMatmul mm;
  torch::Tensor out = torch::empty({5, 3}, torch::kFloat64);
  mm.run(out, a, b, &bias, CpuMatmul::Activation::kTanh);
  CHECK(torch::equal(out, torch::tanh(torch::addmm(bias, a, b))));
  CHECK(matmul_worst_error(out, a, b, &bias, CpuMatmul::Activation::kTanh) < 1e-14);

  torch::Tensor wrong = torch::empty({5, 4});
  const torch::Tensor af = a.to(torch::kFloat32), bf = b.to(torch::kFloat32);
  CHECK_THROWS_WITH(mm.run(wrong, af, bf), Catch::Contains("[5, 7] x [7, 3] into [5, 4]"));
  torch::Tensor right = torch::empty({5, 3});
  CHECK_THROWS_WITH(mm.run(right, af, bf.t()), Catch::Contains("do not chain"));
  const torch::Tensor short_bias = torch::zeros({2});
  CHECK_THROWS_WITH(mm.run(right, af, bf, &short_bias), Catch::Contains("with bias [2]"));
}
