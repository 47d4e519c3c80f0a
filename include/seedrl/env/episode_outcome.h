// How an episode ended, in words, for envs whose episodes end in more than
// one way worth counting (Football's drills: a goal, the ball lost to the
// keeper or to a defender, out of play, time up; its games: won, drawn,
// lost). `seedrl eval` and `play` count them. A mix-in like RgbRenderable:
// the wrappers forward to the env they wrap.
#pragma once

namespace seedrl {

class Env;

class EpisodeOutcome {
 public:
  // After the step that ended an episode (terminated or truncated): how it
  // ended, a short static phrase; nullptr when the env does not say.
  virtual const char* episode_outcome() const = 0;

 protected:
  ~EpisodeOutcome() = default;
};

// The env's outcome through any wrappers; nullptr when it has none.
const char* episode_outcome(const Env& env);

}  // namespace seedrl
