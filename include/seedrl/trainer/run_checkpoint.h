// A training run's checkpoint, V-trace's and R2D2's alike: its file in
// --logdir, the resume at start and the save that the learner thread and the
// run's end call. `Learner` is a DataParallelLearner or an R2D2Learner: the
// model and optimizer of replica 0, its counters, and a way to copy replica 0
// to the others after loading.
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "seedrl/io/checkpoint.h"
#include "seedrl/trainer/non_finite_weights.h"
#include "seedrl/trainer/resume_check.h"
#include "seedrl/trainer/train_config.h"

namespace seedrl {

template <class Learner>
class RunCheckpoint {
 public:
  // `extras`: modules saved beside the model (R2D2's target network).
  RunCheckpoint(const TrainConfig& config, Learner& learner, CheckpointExtrasIn extras = {})
      : path_(checkpoint_path(config.run_logdir.empty() ? config.logdir : config.run_logdir)),
        config_(config),
        config_json_(to_json(config)),
        learner_(learner),
        extras_(std::move(extras)) {
    // Here, while the learner is being built: a refused file leaves the run
    // directory untouched, and the weights are in place before the first
    // publication.
    if (!config.resume && !config.init_checkpoint.empty()) initialize(config.init_checkpoint);
  }

  const std::string& path() const { return path_; }

  // With `resume`, loads the checkpoint (if there is one yet) into every
  // replica and returns its counters; otherwise, or without one, zeros.
  // Refuses (std::invalid_argument, one line) a checkpoint of another env,
  // network or optimizer.
  CheckpointCounters resume(bool resume) {
    if (!resume) return {};
    std::error_code ec;
    const bool there = std::filesystem::exists(path_, ec);
    if (ec) throw std::invalid_argument("--resume: checkpoint " + path_ + ": " + ec.message());
    // A typo in --logdir must not silently start a fresh run.
    if (!there)
      throw std::invalid_argument("--resume: no checkpoint at " + path_ +
                                  " (check --logdir; a fresh run is one without --resume)");
    TrainConfig saved;
    try {
      saved = train_config_from_json(read_checkpoint_header(path_).config_json);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("--resume: checkpoint " + path_ + ": " + e.what());
    }
    if (const std::string differs = resume_mismatch(saved, config_); !differs.empty())
      throw std::invalid_argument("--resume: " + differs + " (" + path_ +
                                  "); resume with the checkpoint's setting or train in another --logdir");
    const CheckpointCounters c = load_checkpoint(path_, *learner_.model(), &learner_.optimizer(), extras_).counters;
    learner_.set_counters(c.learner_steps, c.learner_frames);
    learner_.sync_replicas();
    return c;
  }

  // --init-checkpoint: a fresh run's network (and extras) from `file`, another
  // run's checkpoint of this algorithm with the same tensor shapes; the
  // optimizer and the counters stay fresh. Refuses (std::invalid_argument,
  // one line naming the flag and the file) anything else, changing nothing.
  void initialize(const std::string& file) {
    const std::string flag = "--init-checkpoint: ";
    LoadedCheckpoint header;
    try {
      header = read_checkpoint_header(file);
    } catch (const CheckpointError& e) {
      throw std::invalid_argument(flag + e.what());
    }
    TrainConfig saved;
    try {
      saved = train_config_from_json(header.config_json);
    } catch (const std::exception& e) {
      throw std::invalid_argument(flag + "checkpoint " + file + ": " + e.what());
    }
    if (saved.algo != config_.algo)
      throw std::invalid_argument(flag + file + " holds " + saved.algo + " weights; this run trains " + config_.algo);
    try {
      load_checkpoint(file, *learner_.model(), nullptr, extras_);
    } catch (const CheckpointError& e) {
      throw std::invalid_argument(flag + e.what() + " (its run: --env " + saved.env + " --model " + saved.model.torso +
                                  ")");
    }
    learner_.sync_replicas();
  }

  // Ends the run (throws) at the first non-finite `value` made from the
  // learner's loss or its published weights (`what`: "loss" or "weights";
  // the weights follow a non-finite loss within a step): before the actors
  // act on NaN weights for the rest of the run and long before the next save
  // would notice. The last checkpoint stays as it was.
  void check_finite(double value, const std::string& what) const {
    if (std::isfinite(value)) return;
    std::error_code ec;
    throw std::runtime_error(
        non_finite_weights_error(what, config_.algo, learner_.steps(), path_, std::filesystem::exists(path_, ec)));
  }

  // Written atomically (save_checkpoint): a killed run keeps the previous one.
  // Weights that are no longer finite are not saved over it: save throws
  // instead, which ends the run.
  // `run`: the run's progress; the learner's counters are filled in here.
  void save(const CheckpointCounters& run) const {
    if (config_.rank > 0) return;  // learner processes: rank 0 writes the run's checkpoint
    if (!all_finite(*learner_.model())) {
      // A checkpoint there is this run's (a fresh run's --logdir holds none),
      // saved by it or resumed from: finite, as save writes no other.
      std::error_code ec;
      throw std::runtime_error(non_finite_weights_error("weights", config_.algo, learner_.steps(), path_,
                                                        std::filesystem::exists(path_, ec)));
    }
    CheckpointCounters c = run;
    c.learner_steps = learner_.steps();
    c.learner_frames = learner_.frames();
    CheckpointExtras extras;
    for (const auto& [name, module] : extras_) extras.emplace_back(name, module);
    save_checkpoint(path_, *learner_.model(), learner_.optimizer(), c, config_json_, extras);
  }

 private:
  std::string path_;
  TrainConfig config_;
  std::string config_json_;
  Learner& learner_;
  CheckpointExtrasIn extras_;
};

}  // namespace seedrl
