// How an episode ended, in words, for envs whose episodes end in more than
// one way worth counting (Football's drills: a goal, the ball lost to the
// keeper or to a defender, out of play, time up; its games: won, drawn,
// lost). `seedrl eval` and `play` count them, and training counts them over
// its recent episodes (metrics columns ended_<outcome>: Football's training
// goal rate). A mix-in like RgbRenderable: the wrappers forward to the env
// they wrap.
#pragma once

#include <span>

namespace seedrl {

class Env;

class EpisodeOutcome {
 public:
  // After the step that ended an episode (terminated or truncated): how it
  // ended, one of episode_outcomes()'s phrases; nullptr when the env does
  // not say.
  virtual const char* episode_outcome() const = 0;
  // Every phrase episode_outcome() can say, in a fixed order (static
  // strings).
  virtual std::span<const char* const> episode_outcomes() const = 0;

 protected:
  ~EpisodeOutcome() = default;
};

// The env's outcome through any wrappers; nullptr when it has none.
const char* episode_outcome(const Env& env);
// The env's phrases through any wrappers; empty when it has none.
std::span<const char* const> episode_outcomes(const Env& env);
// The env's outcome as an index into episode_outcomes(env); -1 when it says
// none.
int episode_outcome_index(const Env& env);

}  // namespace seedrl
