#include "seedrl/io/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <unordered_set>

#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include "seedrl/io/checkpoint_optimizer.h"
#include "seedrl/io/checkpoint_tensors.h"
#include "seedrl/io/crc32c.h"
#include "seedrl/io/input_file.h"

namespace seedrl {

namespace {

// The file (integers little-endian):
//   [0, 8)    magic "SEEDRLC2"
//   [8, 16)   u64 length of the index
//   [16, 24)  u64 length of the tensor data
//   [24, 28)  u32 CRC-32C of everything after the header
//   [28, ...) the index (JSON text), then the tensor data
// The index:
//   {"format": 2, "counters": {"frames": F, "learner_steps": S, "learner_frames": L, "episodes": E},
//    "config": "<the run's config JSON as a string>",
//    "modules": [{"name": "model", "tensors": [entry...]}, {"name": "extra/<name>", ...}...],
//    "optimizer": (checkpoint_optimizer.h)}
// with tensor entries as checkpoint_tensors.h describes them, their bytes in
// the data in index order (modules, then the optimizer).
constexpr char kMagic[8] = {'S', 'E', 'E', 'D', 'R', 'L', 'C', '2'};
// Versions up to this one wrote a LibTorch archive after a 20-byte header.
constexpr char kArchiveMagic[8] = {'S', 'E', 'E', 'D', 'R', 'L', 'C', '1'};
constexpr std::size_t kHeaderBytes = 8 + 8 + 8 + 4;
constexpr std::int64_t kFormat = 2;
// Deeper than any index this file writes; a crafted one cannot go deeper.
constexpr int kMaxIndexDepth = 16;

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

// Parameters, then buffers, with their names (undefined ones left out).
std::vector<std::pair<std::string, torch::Tensor>> module_tensors(const torch::nn::Module& module) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& p : module.named_parameters())
    if (p.value().defined()) out.emplace_back(p.key(), p.value());
  for (const auto& b : module.named_buffers())
    if (b.value().defined()) out.emplace_back(b.key(), b.value());
  return out;
}

nlohmann::json write_module(const std::string& name, const torch::nn::Module& module, CheckpointTensorWriter& w) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const auto& [key, t] : module_tensors(module)) tensors.push_back(w.add(key, t));
  return {{"name", name}, {"tensors", std::move(tensors)}};
}

// A checkpoint file read whole and its index checked, field by field, before
// anything is loaded from it.
class CheckpointFile {
 public:
  explicit CheckpointFile(const std::string& path) : path_(path) {
    read(path);
    const auto* body = file_.data() + kHeaderBytes;
    reader_.emplace(path, body + index_bytes_, data_bytes_);
    parse_index(body, index_bytes_);
  }

  const LoadedCheckpoint& header() const { return header_; }

  // The file's tensors for each of `module`'s, in module_tensors order: same
  // names, shapes and dtypes, or a CheckpointError.
  std::vector<const CheckpointTensor*> match_module(const std::string& name, const torch::nn::Module& module) const {
    const std::vector<CheckpointTensor>* saved = nullptr;
    for (const auto& [n, tensors] : modules_)
      if (n == name) saved = &tensors;
    if (!saved) reader_->fail("has no " + name + " (was it written by another algorithm?)");
    const auto live = module_tensors(module);
    std::vector<const CheckpointTensor*> match;
    for (const auto& [key, t] : live) {
      const CheckpointTensor* s = nullptr;
      for (const auto& c : *saved)
        if (c.name == key) s = &c;
      if (!s) reader_->fail("does not match this model: " + name + " has no " + key + " there");
      if (s->shape != t.sizes().vec())
        reader_->fail("does not match this model: " + key + " is " + shape_text(s->shape) + " there, " +
                      shape_text(t.sizes().vec()) + " here");
      if (s->dtype != t.scalar_type())
        reader_->fail("does not match this model: " + key + " is " + dtype_name(s->dtype) + " there, " +
                      dtype_name(t.scalar_type()) + " here");
      match.push_back(s);
    }
    if (saved->size() != live.size()) {  // names are unique on both sides: one of the file's is not here
      for (const auto& c : *saved) {
        bool found = false;
        for (const auto& l : live) found |= l.first == c.name;
        if (!found)
          reader_->fail("does not match this model: " + name + " has " + printable(c.name) + " there, not here");
      }
    }
    return match;
  }

  // Weights that hold NaN or infinity would evaluate as garbage or train on
  // from garbage: refused before any tensor changes.
  void check_finite(const std::vector<const CheckpointTensor*>& match, const std::string& name) const {
    torch::NoGradGuard no_grad;
    for (const CheckpointTensor* t : match) {
      const torch::Tensor x = reader_->make_tensor(*t);
      if (x.is_floating_point() && !torch::isfinite(x).all().item<bool>())
        fail("holds non-finite weights (NaN or infinity) in " + name + " " + printable(t->name) +
             "; it cannot be evaluated or resumed (an earlier checkpoint of the run may be finite)");
    }
  }

  void copy_module(const std::vector<const CheckpointTensor*>& match, torch::nn::Module& module) const {
    torch::NoGradGuard no_grad;
    auto live = module_tensors(module);
    for (std::size_t i = 0; i < live.size(); ++i) live[i].second.copy_(reader_->make_tensor(*match[i]));
  }

  void load_optimizer(torch::optim::Optimizer& optimizer) const {
    restore_optimizer_state(optimizer_, *reader_, optimizer);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw CheckpointError("checkpoint " + path_ + " " + what); }

  void read(const std::string& path) {
    // Only a regular file: a FIFO named as the checkpoint would block the read forever.
    try {
      file_ = read_regular_file(path, "checkpoint", std::numeric_limits<std::size_t>::max());
    } catch (const std::invalid_argument& e) {
      throw CheckpointError(e.what());
    }
    const std::size_t got = std::min<std::size_t>(file_.size(), kHeaderBytes);
    const char* head = file_.data();
    if (got >= 8 && std::memcmp(head, kArchiveMagic, 8) == 0)
      fail(
          "was written by an older seedrl (a LibTorch archive), which this version does not read; "
          "retrain, or use the seedrl that wrote it");
    if (got < 8 || std::memcmp(head, kMagic, 8) != 0) fail("is not a seedrl checkpoint (bad header)");
    if (got < kHeaderBytes) fail("is truncated (" + std::to_string(got) + " bytes, not even a header)");
    std::uint32_t crc;
    std::memcpy(&index_bytes_, head + 8, 8);
    std::memcpy(&data_bytes_, head + 16, 8);
    std::memcpy(&crc, head + 24, 4);
    const std::uint64_t have = file_.size() - kHeaderBytes;
    std::uint64_t promised = 0;
    if (__builtin_add_overflow(index_bytes_, data_bytes_, &promised) || promised != have)
      fail("is truncated or padded (its header promises " + std::to_string(index_bytes_) + " + " +
           std::to_string(data_bytes_) + " bytes, the file holds " + std::to_string(have) + ")");
    if (crc32c(file_.data() + kHeaderBytes, have) != crc) fail("is corrupt (checksum mismatch)");
  }

  // The optional counters of the run's progress, checked as untrusted input.
  void read_run_progress(const nlohmann::json& c) {
    if (const auto w = c.find("wall_seconds"); w != c.end()) {
      if (!w->is_number() || !std::isfinite(w->get<double>()) || w->get<double>() < 0)
        fail("is damaged: its wall_seconds is not a time");
      header_.counters.wall_seconds = w->get<double>();
    }
    const auto list = [&](const char* key, std::vector<double>& out) {
      const auto it = c.find(key);
      if (it == c.end()) return;
      if (!it->is_array() || it->size() > kMaxRecentEpisodes)
        fail(std::string("is damaged: its ") + key + " is not a list of at most " + std::to_string(kMaxRecentEpisodes) +
             " numbers");
      for (const auto& v : *it) {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
          fail(std::string("is damaged: its ") + key + " holds a value that is not a finite number");
        out.push_back(v.get<double>());
      }
    };
    list("recent_returns", header_.counters.recent_returns);
    list("recent_lengths", header_.counters.recent_lengths);
    if (header_.counters.recent_returns.size() != header_.counters.recent_lengths.size())
      fail("is damaged: its recent_returns and recent_lengths differ in length");
    if (const auto t = c.find("target_reached"); t != c.end()) {
      const CheckpointIndexReader& r = *reader_;
      const std::string where = "the counters' target_reached";
      TargetReached hit;
      hit.target = r.number_field(*t, "target", where);
      hit.mean_return = r.number_field(*t, "mean_return", where);
      hit.frames = r.int_field(*t, "frames", where);
      hit.wall_seconds = r.number_field(*t, "wall_seconds", where);
      hit.learner_steps = r.int_field(*t, "learner_steps", where);
      hit.episodes = r.int_field(*t, "episodes", where);
      if (!std::isfinite(hit.target) || !std::isfinite(hit.mean_return) || !std::isfinite(hit.wall_seconds) ||
          hit.wall_seconds < 0 || hit.frames > header_.counters.frames)
        fail("is damaged: its target_reached is not a moment of this run");
      header_.counters.target_reached = hit;
    }
  }

  void parse_index(const char* text, std::uint64_t bytes) {
    nlohmann::json index;
    try {
      index = nlohmann::json::parse(text, text + bytes, [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
        if (depth > kMaxIndexDepth) throw std::length_error("nested too deeply");
        return true;
      });
    } catch (const std::exception& e) {
      fail("is damaged: its index is not valid JSON (" + printable(e.what(), 300) + ")");
    }
    CheckpointIndexReader& r = *reader_;
    if (!index.is_object()) fail("is damaged: its index is not a JSON object");
    if (r.int_field(index, "format", "the index") != kFormat)
      fail("has format " + std::to_string(r.int_field(index, "format", "the index")) +
           ", which this seedrl does not read");
    const auto& c = r.field(index, "counters", "the index");
    header_.counters.frames = r.int_field(c, "frames", "the counters");
    header_.counters.learner_steps = r.int_field(c, "learner_steps", "the counters");
    header_.counters.learner_frames = r.int_field(c, "learner_frames", "the counters");
    header_.counters.episodes = r.int_field(c, "episodes", "the counters");
    read_run_progress(c);
    header_.config_json = r.string_field(index, "config", "the index");
    const auto& modules = r.field(index, "modules", "the index");
    if (!modules.is_array()) fail("is damaged: its modules are not a list");
    std::unordered_set<std::string> names;
    for (const auto& m : modules) {
      std::string name = r.string_field(m, "name", "a module");
      if (!names.insert(name).second) fail("is damaged: it holds module '" + printable(name) + "' twice");
      auto tensors = r.tensor_list(r.field(m, "tensors", "module '" + printable(name) + "'"), printable(name));
      modules_.emplace_back(std::move(name), std::move(tensors));
    }
    if (!names.count("model")) fail("is damaged: it holds no model");
    optimizer_ = read_optimizer_state(r.field(index, "optimizer", "the index"), r);
    r.check_all_data_read();
    for (const auto& [name, tensors] : modules_)
      if (name == "model")
        for (const auto& t : tensors) header_.model_shapes.emplace_back(t.name, t.shape);
  }

  std::string path_;
  std::string file_;
  std::uint64_t index_bytes_ = 0, data_bytes_ = 0;
  std::optional<CheckpointIndexReader> reader_;
  LoadedCheckpoint header_;
  std::vector<std::pair<std::string, std::vector<CheckpointTensor>>> modules_;
  SavedOptimizerState optimizer_;
};

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

void save_checkpoint(const std::string& path, const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                     const CheckpointCounters& counters, const std::string& config_json) {
  save_checkpoint(path, model, optimizer, counters, config_json, {});
}

void save_checkpoint(const std::string& path, const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                     const CheckpointCounters& counters, const std::string& config_json,
                     const CheckpointExtras& extras) {
  CheckpointTensorWriter w;
  nlohmann::json modules = nlohmann::json::array();
  modules.push_back(write_module("model", model, w));
  for (const auto& [name, module] : extras) modules.push_back(write_module("extra/" + name, *module, w));
  nlohmann::json index{{"format", kFormat},
                       {"counters",
                        {{"frames", counters.frames},
                         {"learner_steps", counters.learner_steps},
                         {"learner_frames", counters.learner_frames},
                         {"episodes", counters.episodes},
                         {"wall_seconds", counters.wall_seconds},
                         {"recent_returns", counters.recent_returns},
                         {"recent_lengths", counters.recent_lengths}}},
                       {"config", config_json},
                       {"modules", std::move(modules)}};
  if (const auto& t = counters.target_reached)
    index["counters"]["target_reached"] = {{"target", t->target},
                                           {"mean_return", t->mean_return},
                                           {"frames", t->frames},
                                           {"wall_seconds", t->wall_seconds},
                                           {"learner_steps", t->learner_steps},
                                           {"episodes", t->episodes}};
  index["optimizer"] = write_optimizer_state(optimizer, w);
  const std::string text = index.dump();
  const std::string& data = w.data();
  std::string file(kHeaderBytes, '\0');
  file.reserve(kHeaderBytes + text.size() + data.size());
  file += text;
  file += data;
  const std::uint64_t index_bytes = text.size(), data_bytes = data.size();
  const std::uint32_t crc = crc32c(file.data() + kHeaderBytes, file.size() - kHeaderBytes);
  std::memcpy(file.data(), kMagic, 8);
  std::memcpy(file.data() + 8, &index_bytes, 8);
  std::memcpy(file.data() + 16, &data_bytes, 8);
  std::memcpy(file.data() + 24, &crc, 4);
  atomic_write(path, file);
}

LoadedCheckpoint read_checkpoint_header(const std::string& path) { return CheckpointFile(path).header(); }

LoadedCheckpoint load_checkpoint(const std::string& path, torch::nn::Module& model,
                                 torch::optim::Optimizer* optimizer) {
  return load_checkpoint(path, model, optimizer, {});
}

LoadedCheckpoint load_checkpoint(const std::string& path, torch::nn::Module& model, torch::optim::Optimizer* optimizer,
                                 const CheckpointExtrasIn& extras) {
  const CheckpointFile file(path);
  // Everything is checked before the first tensor changes: a checkpoint that
  // does not fit leaves the model and optimizer as they were.
  const auto model_match = file.match_module("model", model);
  std::vector<std::vector<const CheckpointTensor*>> extra_match;
  for (const auto& [name, module] : extras) extra_match.push_back(file.match_module("extra/" + name, *module));
  file.check_finite(model_match, "model");
  for (std::size_t i = 0; i < extras.size(); ++i) file.check_finite(extra_match[i], "extra/" + extras[i].first);
  if (optimizer) file.load_optimizer(*optimizer);  // checks, then changes the optimizer
  file.copy_module(model_match, model);
  for (std::size_t i = 0; i < extras.size(); ++i) file.copy_module(extra_match[i], *extras[i].second);
  return file.header();
}

}  // namespace seedrl
