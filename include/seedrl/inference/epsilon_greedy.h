// Ape-X / R2D2 exploration: environment i of N acts epsilon-greedily with
// eps_i = eps^(1 + alpha i / (N - 1)) (Horgan et al. 2018, eps = 0.4,
// alpha = 7), so a few envs explore a lot and most act nearly greedily.
// Evaluation envs (slots >= N) use a small fixed epsilon. Remote actors'
// slots are leased in order by however many envs connect, so their i / (N-1)
// is replaced by a low-discrepancy sequence: any first k of them spread over
// the whole schedule.
#pragma once

#include <cstdint>
#include <vector>

#include "seedrl/inference/action_selector.h"
#include "seedrl/util/rng.h"

namespace seedrl::r2d2 {

// eps^(1 + alpha i / (n - 1)); n == 1 gives eps.
double apex_epsilon(int i, int n, double eps, double alpha);
// The base-2 van der Corput sequence: 0, 1/2, 1/4, 3/4, 1/8, 5/8, ...
double van_der_corput(std::uint64_t j);

class EpsilonGreedySelector final : public ActionSelector {
 public:
  // Slots [0, train_envs) get the Ape-X schedule, the last `remote_envs` of
  // them through van_der_corput(); [train_envs, train_envs + eval_envs) get
  // eval_epsilon. Each slot has its own random stream.
  EpsilonGreedySelector(int num_actions, int train_envs, int eval_envs, double epsilon, double alpha,
                        double eval_epsilon, std::uint64_t seed, int remote_envs = 0);

  torch::Tensor select(const torch::Tensor& q, const torch::Tensor& slots) override;
  double epsilon(int slot) const { return epsilon_[slot]; }

 private:
  int num_actions_;
  std::vector<double> epsilon_;
  std::vector<Rng> rng_;  // per slot: a slot is selected for by one thread at a time
};

}  // namespace seedrl::r2d2
