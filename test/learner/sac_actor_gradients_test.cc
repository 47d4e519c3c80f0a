// SAC's hand-written actor and temperature gradients against autograd over
// squashed_sample and the losses, in double precision: the one-loop float32
// CPU path within float32's rounding, the tensor-op path (any other dtype or
// device) to double's. The log-stds reach past both clamp bounds and the
// pre-squash values past softplus's threshold.
#include <catch2/catch.hpp>

#include <torch/torch.h>

#include "seedrl/learner/sac/actor_gradients.h"
#include "seedrl/learner/sac/sac_losses.h"
#include "seedrl/model/squashed_gaussian.h"

using namespace seedrl::sac;

namespace {

// The actor's output [N, 2 dim]: means up to +-12 (tanh saturates), log-stds
// in [-24, 3] (both clamp bounds crossed).
torch::Tensor actor_output(std::int64_t n, std::int64_t dim, torch::Generator& g) {
  torch::Tensor mean = torch::randn({n, dim}, g, torch::kFloat64) * 4;
  mean.index_put_({0, 0}, 12.0);
  mean.index_put_({1, 0}, -12.0);
  const torch::Tensor log_std = torch::rand({n, dim}, g, torch::kFloat64) * 27 - 24;
  return torch::cat({mean, log_std}, 1);
}

double relative_error(const torch::Tensor& got, const torch::Tensor& ref) {
  return (got.to(torch::kFloat64) - ref).norm().item<double>() / ref.norm().item<double>();
}

}  // namespace

TEST_CASE("SAC's squashed sample and its gradient are autograd's", "[learner][sac]") {
  torch::Generator g = at::detail::createCPUGenerator(31);
  const std::int64_t n = 40, dim = 3;
  const torch::Tensor out = actor_output(n, dim, g);
  const torch::Tensor noise = torch::randn({n, dim}, g, torch::kFloat64);
  const torch::Tensor action_grad = torch::randn({n, dim}, g, torch::kFloat64);
  const double w = 0.37;

  const torch::Tensor leaf = out.clone().requires_grad_(true);
  const SquashedSample ref = squashed_sample(leaf.narrow(1, 0, dim), leaf.narrow(1, dim, dim), noise);
  (w * ref.log_prob.sum() + (action_grad * ref.action).sum()).backward();
  const torch::Tensor ref_grad = leaf.grad();
  // Not a case where a term vanishes: both halves of the gradient carry weight.
  REQUIRE(ref_grad.narrow(1, 0, dim).abs().sum().item<double>() > 1);
  REQUIRE(ref_grad.narrow(1, dim, dim).abs().sum().item<double>() > 1);

  SECTION("the tensor-op path, in double precision") {
    const SquashedSample s = squashed_sample_of(out, noise);
    CHECK(relative_error(s.action, ref.action.detach()) < 1e-12);
    CHECK(relative_error(s.log_prob, ref.log_prob.detach()) < 1e-12);
    // 1 - tanh(u)^2 here, softplus's derivative in autograd: rounding apart where tanh saturates.
    CHECK(relative_error(squashed_sample_grad(out, noise, action_grad, w), ref_grad) < 1e-10);
  }
  SECTION("the one-loop float32 path") {
    const auto f = [](const torch::Tensor& t) { return t.to(torch::kFloat32); };
    const SquashedSample s = squashed_sample_of(f(out), f(noise));
    REQUIRE(s.action.scalar_type() == torch::kFloat32);
    CHECK(relative_error(s.action, ref.action.detach()) < 1e-6);
    CHECK(relative_error(s.log_prob, ref.log_prob.detach()) < 1e-6);
    const torch::Tensor grad = squashed_sample_grad(f(out), f(noise), f(action_grad), w);
    REQUIRE(grad.sizes() == out.sizes());
    CHECK(relative_error(grad.narrow(1, 0, dim), ref_grad.narrow(1, 0, dim)) < 1e-5);
    CHECK(relative_error(grad.narrow(1, dim, dim), ref_grad.narrow(1, dim, dim)) < 1e-5);
    // Outside the clamp the log-std gets no gradient, inside it does.
    const torch::Tensor log_std = out.narrow(1, dim, dim);
    const torch::Tensor outside = (log_std < kMinLogStd).logical_or(log_std > kMaxLogStd);
    REQUIRE(outside.any().item<bool>());
    CHECK(grad.narrow(1, dim, dim).masked_select(outside).abs().max().item<double>() == 0);
  }
  CHECK_THROWS_WITH(squashed_sample_of(out, noise.narrow(1, 0, 2)), Catch::Contains("[N, 2 dim]"));
}

TEST_CASE("SAC's actor and temperature loss gradients are autograd's, ties included", "[learner][sac]") {
  // float32 takes the CPU's loop, double the tensor ops; the reference is
  // autograd in double either way.
  const auto dtype = GENERATE(torch::kFloat64, torch::kFloat32);
  INFO("dtype " << dtype);
  torch::Generator g = at::detail::createCPUGenerator(32);
  const std::int64_t n = 16;
  const torch::Tensor log_prob = torch::randn({n}, g, torch::kFloat64).to(dtype).to(torch::kFloat64);
  const torch::Tensor q1 = torch::randn({n}, g, torch::kFloat64).to(dtype).to(torch::kFloat64);
  torch::Tensor q2 = torch::randn({n}, g, torch::kFloat64).to(dtype).to(torch::kFloat64);
  q2.index_put_({3}, q1[3]);  // a tie: autograd's minimum halves the gradient
  const double alpha = 0.2;

  const torch::Tensor r1 = q1.clone().requires_grad_(true), r2 = q2.clone().requires_grad_(true);
  const torch::Tensor ref = actor_loss(log_prob, r1, r2, torch::tensor(alpha, torch::kFloat64));
  ref.backward();
  const ActorLossGrads got = actor_loss_grads(log_prob.to(dtype), q1.to(dtype), q2.to(dtype), alpha);
  REQUIRE(got.q1_grad.scalar_type() == dtype);
  CHECK(got.loss.item<double>() == Approx(ref.item<double>()).epsilon(dtype == torch::kFloat32 ? 1e-6 : 1e-12));
  CHECK(torch::allclose(got.q1_grad.to(torch::kFloat64), r1.grad(), 0, 1e-15));
  CHECK(torch::allclose(got.q2_grad.to(torch::kFloat64), r2.grad(), 0, 1e-15));
  CHECK(got.q1_grad[3].item<double>() == Approx(-0.5 / n));

  const torch::Tensor log_alpha = torch::tensor(-0.7, torch::kFloat64).requires_grad_(true);
  temperature_loss(log_alpha, log_prob, -3.0).backward();
  const torch::Tensor t = temperature_loss_grad(log_alpha, log_prob.mean().item<double>(), -3.0);
  CHECK(t.sizes() == log_alpha.sizes());
  CHECK(t.item<double>() == Approx(log_alpha.grad().item<double>()).epsilon(1e-12));
}
