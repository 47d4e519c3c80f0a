#include "seedrl/learner/replica_sync.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

#include <torch/torch.h>

namespace seedrl {

namespace {

std::string describe_checksum(const torch::Tensor& c) {
  auto cpu = c.to(torch::kCPU);
  std::ostringstream os;
  os << std::setprecision(17) << "[" << cpu[0].item<double>() << ", " << cpu[1].item<double>() << ", "
     << cpu[2].item<double>() << "]";
  return os.str();
}

}  // namespace

torch::Tensor parameter_checksum(const torch::nn::Module& model, torch::Device device) {
  torch::NoGradGuard no_grad;
  auto opts = torch::TensorOptions().dtype(torch::kFloat64).device(device);
  auto sum = torch::zeros({}, opts), sq = torch::zeros({}, opts), weighted = torch::zeros({}, opts);
  double k = 0;
  auto tensors = model.parameters();
  for (auto& b : model.buffers()) tensors.push_back(b);
  for (auto& t : tensors) {
    auto d = t.detach().to(device, torch::kFloat64).flatten();
    sum += d.sum();
    sq += d.pow(2).sum();
    weighted += (d * torch::cos(torch::arange(d.numel(), opts) + (k += 1.0))).sum();
  }
  return torch::stack({sum, sq, weighted});
}

void check_replicas_identical(ReplicaGroup& group, int rank, const torch::nn::Module& model,
                              const std::vector<torch::Device>& devices, std::int64_t step) {
  auto gathered = group.allgather(rank, parameter_checksum(model, devices.at(rank)));
  const auto reference = gathered[0].to(torch::kCPU);
  for (std::size_t other = 1; other < gathered.size(); ++other) {
    if (!torch::equal(gathered[other].to(torch::kCPU), reference)) {
      // Within one process a replica is named by its device; across processes by its global rank.
      const bool local = group.world_size() == static_cast<int>(devices.size());
      const std::string who = local ? "replica " + std::to_string(other) + " (" + devices.at(other).str() + ")"
                                    : "learner rank " + std::to_string(other);
      throw std::runtime_error("learner replicas diverged after " + std::to_string(step) + " updates: " + who +
                               " parameter checksum " + describe_checksum(gathered[other]) +
                               " differs from replica 0's " + describe_checksum(gathered[0]) +
                               "; stopping rather than training diverged copies");
    }
  }
}

void broadcast_module(ReplicaGroup& group, int rank, torch::nn::Module& model) {
  torch::NoGradGuard no_grad;
  for (auto& p : model.parameters()) group.broadcast(rank, p.detach(), 0);
  for (auto& b : model.buffers()) group.broadcast(rank, b.detach(), 0);
}

void copy_optimizer_state(torch::optim::Optimizer& from, torch::optim::Optimizer& to, torch::Device device) {
  torch::serialize::OutputArchive out;
  from.save(out);
  std::ostringstream bytes;
  out.save_to(bytes);
  std::istringstream in_bytes(bytes.str());
  torch::serialize::InputArchive in;
  in.load_from(in_bytes, device);
  to.load(in);
}

}  // namespace seedrl
