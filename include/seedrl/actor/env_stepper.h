// The env-stepping routine of every actor thread, local or remote: it resets
// and steps the thread's K envs, each writing its observation into the
// thread's staging row (a local actor's: the RequestBatcher then copies it
// once into the inference batch; a remote actor's STEP frame, sent as is),
// sets the reward and episode flags beside it, clips continuous actions to
// the box and tells an EpisodeTracker every step (and how an episode ended,
// where the env says). The callers differ only in where
// that memory is (a local actor's staging rows, a remote actor's STEP frame)
// and where the actions come from (the RequestBatcher, the socket).
// Buffers are set up once; step() allocates nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "seedrl/actor/episode_tracker.h"
#include "seedrl/env/env.h"
#include "seedrl/env/registry.h"

namespace seedrl {

// Where env k's step goes and where its action is read from. Each pointer
// stays valid while the stepper uses it.
struct EnvPort {
  void* obs = nullptr;            // spec.observation.bytes() bytes
  float* reward = nullptr;        // reward of the transition that led to obs
  std::uint8_t* flags = nullptr;  // StepFlags of obs
  const float* action = nullptr;  // spec.action.width() floats, read by step()
};

// `count` envs of one kind, as `registry` (nullptr: the built-in one) makes them.
std::vector<EnvPtr> make_envs(const std::string& env, const EnvOptions& options, int count,
                              const EnvRegistry* registry = nullptr);

class EnvStepper {
 public:
  // The envs of one thread (at least one, all of one spec). `tracker`, when
  // given, is sized to the envs and hears every reward and flags written.
  explicit EnvStepper(std::vector<EnvPtr> envs, EpisodeTracker* tracker = nullptr);

  int size() const { return static_cast<int>(envs_.size()); }
  const EnvSpec& spec() const { return envs_[0]->spec(); }
  // Points env k at its memory; every env needs one before begin().
  void bind(int k, const EnvPort& port) { ports_[static_cast<std::size_t>(k)] = port; }
  // From now on each episode starts with the envs told the run's progress,
  // `frames` (the run-wide counter, which outlives the stepper) over
  // `max_frames` (> 0), for envs with a curriculum (TrainingProgress).
  void follow_progress(const std::atomic<std::int64_t>& frames, std::int64_t max_frames);

  // Begins a fresh episode in every env (FIRST, reward 0). With a seed, env
  // k's random stream restarts at derive_seed(*seed, first_stream + k);
  // without, each env's stream continues.
  void begin(std::optional<std::uint64_t> seed, std::uint64_t first_stream);

  // Acts on the actions of the steps last written: an env whose last step
  // ended its episode is reset instead (its final observation went to
  // inference only so that a truncated episode can bootstrap from it; the
  // action is ignored); every other env steps. Returns the env steps taken
  // (resets are not steps).
  std::int64_t step();

 private:
  void reset(std::size_t k, std::optional<std::uint64_t> seed);

  std::vector<EnvPtr> envs_;
  std::vector<EnvPort> ports_;
  EpisodeTracker* tracker_;
  const std::atomic<std::int64_t>* frames_ = nullptr;  // follow_progress's
  std::int64_t max_frames_ = 0;
  bool says_outcome_ = false;  // the envs say how episodes end: the tracker hears it
  // Continuous actions are sampled unbounded (the learner's log-probs are of
  // the unclipped sample, which inference already recorded); the env gets a
  // clipped copy. Empty for discrete actions.
  std::vector<float> clipped_;
};

}  // namespace seedrl
