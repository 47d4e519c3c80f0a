#include "seedrl/io/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <torch/torch.h>

#include "seedrl/io/crc32c.h"

namespace seedrl {

namespace {

constexpr char kMagic[8] = {'S', 'E', 'E', 'D', 'R', 'L', 'C', '1'};
constexpr std::size_t kHeaderBytes = 8 + 8 + 4;

void write_all(int fd, const void* data, std::size_t n, const std::string& path) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw CheckpointError("cannot write checkpoint " + path + ": " + std::strerror(errno));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Writes `bytes` to `path` atomically: temp file, fsync, rename, fsync dir.
void atomic_write(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw CheckpointError("cannot create " + tmp + ": " + std::strerror(errno));
  try {
    write_all(fd, bytes.data(), bytes.size(), tmp);
    if (::fsync(fd) != 0) throw CheckpointError("cannot fsync " + tmp + ": " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());  // a full disk leaves no partial file behind
    throw;
  }
  ::close(fd);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw CheckpointError("cannot rename " + tmp + " to " + path + ": " + why);
  }
  const auto dir = std::filesystem::path(path).parent_path();
  int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

// Reads and verifies the file; returns the LibTorch archive bytes.
std::string read_payload(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw CheckpointError("checkpoint " + path + " is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CheckpointError("cannot open checkpoint " + path);
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < kHeaderBytes || std::memcmp(file.data(), kMagic, 8) != 0)
    throw CheckpointError("checkpoint " + path + " is not a seedrl checkpoint (bad header)");
  std::uint64_t len;
  std::uint32_t crc;
  std::memcpy(&len, file.data() + 8, 8);
  std::memcpy(&crc, file.data() + 16, 4);
  const std::size_t have = file.size() - kHeaderBytes;
  if (have != len)
    throw CheckpointError("checkpoint " + path + " is truncated or padded (expected " + std::to_string(len) +
                          " payload bytes, found " + std::to_string(have) + ")");
  if (crc32c(file.data() + kHeaderBytes, have) != crc)
    throw CheckpointError("checkpoint " + path + " is corrupt (checksum mismatch)");
  return file.substr(kHeaderBytes);
}

torch::Tensor counters_tensor(const CheckpointCounters& c) {
  return torch::tensor({c.frames, c.learner_steps, c.learner_frames, c.episodes}, torch::kInt64);
}

LoadedCheckpoint parse(torch::serialize::InputArchive& ar) {
  LoadedCheckpoint out;
  torch::Tensor counters;
  ar.read("counters", counters);
  auto c = counters.accessor<std::int64_t, 1>();
  out.counters = {c[0], c[1], c[2], c[3]};
  c10::IValue cfg;
  ar.read("config", cfg);
  out.config_json = cfg.toStringRef();
  return out;
}

// Parameters, then buffers, with their names and shapes.
std::vector<std::pair<std::string, std::vector<std::int64_t>>> tensor_shapes(const torch::nn::Module& module) {
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> out;
  for (const auto& p : module.named_parameters()) out.emplace_back(p.key(), p.value().sizes().vec());
  for (const auto& b : module.named_buffers()) out.emplace_back(b.key(), b.value().sizes().vec());
  return out;
}

// Module::load replaces each tensor with the archived one, whatever its
// shape: a checkpoint of another network would load "successfully" and fail
// later, deep inside a forward pass. Shapes are compared instead.
void load_module(torch::serialize::InputArchive& ar, torch::nn::Module& module, const std::string& path) {
  const auto expected = tensor_shapes(module);
  module.load(ar);
  const auto loaded = tensor_shapes(module);
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (loaded[i].second != expected[i].second)
      throw CheckpointError("checkpoint " + path + " does not match this model: " + expected[i].first + " is " +
                            c10::str(c10::IntArrayRef(loaded[i].second)) + " there, " +
                            c10::str(c10::IntArrayRef(expected[i].second)) + " here");
}

}  // namespace

bool all_finite(const torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (const auto& p : module.parameters())
    if (!torch::isfinite(p).all().item<bool>()) return false;
  for (const auto& b : module.buffers())
    if (b.is_floating_point() && !torch::isfinite(b).all().item<bool>()) return false;
  return true;
}

std::string checkpoint_path(const std::string& logdir) {
  return (std::filesystem::path(logdir) / "checkpoint.pt").string();
}

void save_checkpoint(const std::string& path, const torch::nn::Module& model,
                     const torch::optim::Optimizer& optimizer, const CheckpointCounters& counters,
                     const std::string& config_json) {
  save_checkpoint(path, model, optimizer, counters, config_json, {});
}

void save_checkpoint(const std::string& path, const torch::nn::Module& model,
                     const torch::optim::Optimizer& optimizer, const CheckpointCounters& counters,
                     const std::string& config_json, const CheckpointExtras& extras) {
  torch::serialize::OutputArchive ar;
  torch::serialize::OutputArchive model_ar, opt_ar;
  model.save(model_ar);
  optimizer.save(opt_ar);
  ar.write("model", model_ar);
  ar.write("optimizer", opt_ar);
  for (const auto& [name, module] : extras) {
    torch::serialize::OutputArchive extra_ar;
    module->save(extra_ar);
    ar.write("extra/" + name, extra_ar);
  }
  ar.write("counters", counters_tensor(counters));
  ar.write("config", c10::IValue(config_json));
  std::ostringstream payload;
  ar.save_to(payload);
  const std::string bytes = payload.str();
  std::string file(kHeaderBytes, '\0');
  const std::uint64_t len = bytes.size();
  const std::uint32_t crc = crc32c(bytes.data(), bytes.size());
  std::memcpy(file.data(), kMagic, 8);
  std::memcpy(file.data() + 8, &len, 8);
  std::memcpy(file.data() + 16, &crc, 4);
  atomic_write(path, file + bytes);
}

LoadedCheckpoint read_checkpoint_header(const std::string& path) {
  std::string payload = read_payload(path);
  try {
    torch::serialize::InputArchive ar;
    ar.load_from(payload.data(), payload.size());
    return parse(ar);
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint " + path + " cannot be read: " + e.what_without_backtrace());
  }
}

LoadedCheckpoint load_checkpoint(const std::string& path, torch::nn::Module& model,
                                 torch::optim::Optimizer* optimizer) {
  return load_checkpoint(path, model, optimizer, {});
}

LoadedCheckpoint load_checkpoint(const std::string& path, torch::nn::Module& model,
                                 torch::optim::Optimizer* optimizer, const CheckpointExtrasIn& extras) {
  std::string payload = read_payload(path);
  try {
    torch::serialize::InputArchive ar;
    ar.load_from(payload.data(), payload.size());
    LoadedCheckpoint out = parse(ar);
    torch::serialize::InputArchive model_ar;
    ar.read("model", model_ar);
    load_module(model_ar, model, path);
    if (optimizer) {
      torch::serialize::InputArchive opt_ar;
      ar.read("optimizer", opt_ar);
      optimizer->load(opt_ar);
    }
    for (const auto& [name, module] : extras) {
      torch::serialize::InputArchive extra_ar;
      ar.read("extra/" + name, extra_ar);
      load_module(extra_ar, *module, path);
    }
    return out;
  } catch (const c10::Error& e) {
    throw CheckpointError("checkpoint " + path + " does not match this model: " + e.what_without_backtrace());
  }
}

}  // namespace seedrl
