#include "seedrl/trainer/best_checkpoint.h"

#include <filesystem>
#include <system_error>

#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"

namespace seedrl {

namespace {
constexpr const char* kKey = "best_eval";
}  // namespace

std::string best_checkpoint_path(const std::string& logdir) {
  return (std::filesystem::path(logdir) / "best.pt").string();
}

void save_best_checkpoint(const std::string& path, AgentNet model, const TrainConfig& config, const EvalResult& r) {
  nlohmann::json j = nlohmann::json::parse(to_json(config));
  j[kKey] = {{"return_mean", r.return_mean},
             {"return_std", r.return_std},
             {"episodes", r.episodes},
             {"frames", r.frames},
             {"learner_steps", r.learner_steps},
             {"seed", r.seed},
             {"greedy", r.greedy}};
  const auto optimizer = make_optimizer(config.learner.optimizer, model->parameters());
  CheckpointCounters counters;
  counters.frames = r.frames;
  counters.learner_steps = r.learner_steps;
  save_checkpoint(path, *model, *optimizer, counters, j.dump());
}

std::optional<EvalResult> read_best_eval(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) && !ec) return std::nullopt;
  const LoadedCheckpoint header = read_checkpoint_header(path);
  try {
    const auto j = nlohmann::json::parse(header.config_json);
    const auto it = j.find(kKey);
    if (it == j.end()) return std::nullopt;
    EvalResult r;
    r.return_mean = it->at("return_mean").get<double>();
    r.return_std = it->at("return_std").get<double>();
    r.episodes = it->at("episodes").get<int>();
    r.frames = it->at("frames").get<std::int64_t>();
    r.learner_steps = it->at("learner_steps").get<std::int64_t>();
    r.seed = it->at("seed").get<std::uint64_t>();
    r.greedy = it->at("greedy").get<bool>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw CheckpointError("checkpoint " + path + ": its best_eval record is damaged (" + e.what() + ")");
  }
}

}  // namespace seedrl
