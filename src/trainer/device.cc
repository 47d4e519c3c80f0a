#include <stdexcept>

#include <torch/cuda.h>
#include <torch/torch.h>

#include "seedrl/trainer/trainer.h"

namespace seedrl {

torch::Device resolve_device(const std::string& name) {
  if (name == "auto") return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  if (name == "cpu") return torch::kCPU;
  if (name.rfind("cuda", 0) == 0) {
    if (!torch::cuda::is_available())
      throw std::invalid_argument("--device: '" + name + "' requested but this LibTorch sees no CUDA device");
    try {
      torch::Device d(name);
      if (d.index() >= static_cast<int>(torch::cuda::device_count()))
        throw std::invalid_argument("--device: '" + name + "' does not exist");
      return d;
    } catch (const c10::Error&) {
      throw std::invalid_argument("--device: cannot parse '" + name + "' (use auto, cpu, cuda or cuda:N)");
    }
  }
  throw std::invalid_argument("--device: unknown device '" + name + "' (use auto, cpu, cuda or cuda:N)");
}

}  // namespace seedrl
