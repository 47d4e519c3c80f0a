#include "seedrl/trainer/placement.h"

#include <algorithm>
#include <stdexcept>

#include <torch/cuda.h>

#include "seedrl/inference/inference_fleet.h"

namespace seedrl {

namespace {

std::string join(const std::vector<torch::Device>& devices) {
  std::string s;
  for (const auto& d : devices) {
    if (!s.empty()) s += ',';
    s += d.str();
  }
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

torch::Device parse_one(const std::string& item, int visible_gpus, const std::string& flag) {
  if (item == "cpu") return torch::Device(torch::kCPU);
  int index = 0;
  if (item != "cuda") {
    const std::string prefix = "cuda:";
    const bool digits =
        item.size() > prefix.size() && item.rfind(prefix, 0) == 0 && item.size() <= prefix.size() + 4 &&
        std::all_of(item.begin() + prefix.size(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits)
      throw std::invalid_argument(flag + ": cannot parse device '" + item + "' (use all, cpu, cuda or cuda:N)");
    index = std::stoi(item.substr(prefix.size()));
  }
  if (index >= visible_gpus)
    throw std::invalid_argument(flag + ": '" + item + "' requested but " +
                                (visible_gpus == 0 ? std::string("this LibTorch sees no CUDA device")
                                                   : "only " + std::to_string(visible_gpus) + " GPU(s) are visible"));
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

bool contains(const std::vector<torch::Device>& v, const torch::Device& d) {
  return std::find(v.begin(), v.end(), d) != v.end();
}

// Devices of `all` not in `taken` (CPU is shareable, so it is never "left
// over"); the first of `all` when nothing remains.
std::vector<torch::Device> remaining(const std::vector<torch::Device>& all, const std::vector<torch::Device>& taken) {
  std::vector<torch::Device> rest;
  for (const auto& d : all)
    if (d.is_cuda() && !contains(taken, d) && !contains(rest, d)) rest.push_back(d);
  if (rest.empty()) rest.push_back(all.front());
  return rest;
}

// No GPU twice for inference: a second batcher on the same GPU would only
// compete with the first. (Learner replicas may share one, through Gloo: the
// multi-replica code path on a one-GPU machine.)
void check_no_gpu_twice(const std::vector<torch::Device>& side, const std::string& flag) {
  for (std::size_t i = 0; i < side.size(); ++i)
    for (std::size_t j = i + 1; j < side.size(); ++j)
      if (side[i].is_cuda() && side[i] == side[j])
        throw std::invalid_argument(flag + ": " + side[i].str() + " is listed twice");
}

}  // namespace

std::string Placement::describe() const {
  std::string s = "inference " + join(inference);
  if (inference.size() > 1) s += " (" + std::to_string(inference.size()) + " batchers)";
  s += " | learner " + join(learner);
  if (learner.size() > 1) s += " (data-parallel, " + std::to_string(learner.size()) + " replicas)";
  return s;
}

std::vector<torch::Device> parse_device_list(const std::string& text_in, int visible_gpus, const std::string& flag) {
  const std::string text = trim(text_in);
  std::vector<torch::Device> out;
  if (text == "all") {
    for (int i = 0; i < visible_gpus; ++i) out.emplace_back(torch::kCUDA, static_cast<c10::DeviceIndex>(i));
    if (out.empty()) out.emplace_back(torch::kCPU);
    return out;
  }
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty()) throw std::invalid_argument(flag + ": empty device in '" + text_in + "'");
    out.push_back(parse_one(item, visible_gpus, flag));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Placement default_split(const std::vector<torch::Device>& devices) {
  if (devices.empty()) throw std::invalid_argument("--devices: no device given");
  Placement p;
  p.inference = {devices.front()};
  if (devices.size() == 1) {
    p.learner = {devices.front()};
  } else {
    p.learner.assign(devices.begin() + 1, devices.end());
  }
  return p;
}

Placement resolve_placement(const std::string& devices, const std::string& inference_devices,
                            const std::string& learner_devices, int visible_gpus, const std::string& single_device) {
  const bool has_inf = !trim(inference_devices).empty(), has_learn = !trim(learner_devices).empty();
  Placement p;
  if (trim(devices) == "all" && !has_inf && !has_learn && !single_device.empty() && single_device != "auto") {
    auto one = parse_device_list(single_device, visible_gpus, "--device");
    if (one.size() != 1) throw std::invalid_argument("--device: give one device (use --devices for several)");
    p.inference = p.learner = one;
    return p;
  }
  const auto all = parse_device_list(devices, visible_gpus, "--devices");
  if (!has_inf && !has_learn) {
    p = default_split(all);
  } else {
    if (has_inf) p.inference = parse_device_list(inference_devices, visible_gpus, "--inference-devices");
    if (has_learn) p.learner = parse_device_list(learner_devices, visible_gpus, "--learner-devices");
    if (!has_inf) p.inference = {remaining(all, p.learner).front()};
    if (!has_learn) p.learner = remaining(all, p.inference);
  }
  const bool any_cpu = std::any_of(p.learner.begin(), p.learner.end(), [](auto& d) { return d.is_cpu(); });
  const bool any_gpu = std::any_of(p.learner.begin(), p.learner.end(), [](auto& d) { return d.is_cuda(); });
  if (any_cpu && any_gpu)
    throw std::invalid_argument("--learner-devices: '" + join(p.learner) +
                                "' mixes cpu and cuda; learner replicas share one backend (Gloo on CPU, NCCL on GPU)");
  check_no_gpu_twice(p.inference, "--inference-devices");
  return p;
}

Placement resolve_placement(const TrainConfig& config) {
  const int visible_gpus = torch::cuda::is_available() ? static_cast<int>(torch::cuda::device_count()) : 0;
  Placement p =
      resolve_placement(config.devices, config.inference_devices, config.learner_devices, visible_gpus, config.device);
  const auto any_cuda = [](const std::vector<torch::Device>& ds) {
    return std::any_of(ds.begin(), ds.end(), [](const torch::Device& d) { return d.is_cuda(); });
  };
  // `learner`, the default, applies where the learner is a GPU; `all` asked
  // for inference graphs too, which would silently do nothing on CPU.
  if (config.inference_cuda_graphs() && !any_cuda(p.inference))
    throw std::invalid_argument("--cuda-graphs all: inference runs on " + join(p.inference) +
                                "; CUDA graphs of its forward need a CUDA device (--cuda-graphs learner or off)");
  return p;
}

InferenceFleetConfig inference_fleet_config(const TrainConfig& config, const ArraySpec& observation, int remote_envs) {
  InferenceFleetConfig f;
  f.observation = observation;
  f.batch_size = config.inference_batch;
  f.timeout = std::chrono::microseconds(config.inference_timeout_us);
  f.threads_per_device = config.inference_threads;
  f.batch_auto = config.inference_batch_auto;
  f.local_actors = config.actors;
  f.envs_per_actor = config.envs_per_actor;
  f.remote_envs = remote_envs;
  f.cuda_graphs = config.inference_cuda_graphs();
  f.answer_first = config.inference_answer_first;
  return f;
}

}  // namespace seedrl
