#include "seedrl/env/minatar/game.h"

#include <cstring>
#include <stdexcept>

#include "seedrl/env/render/minatar_draw.h"

namespace seedrl::minatar {

Game::Game(std::string name, std::vector<std::string> channels, const EnvOptions& options)
    // < 0: not set, the reference's 0.1.
    : sticky_prob_(options.sticky_action_prob < 0 ? 0.1 : options.sticky_action_prob),
      ramping_(options.difficulty_ramping) {
  spec_.name = std::move(name);
  spec_.observation = ArraySpec{{kGridSize, kGridSize, static_cast<std::int64_t>(channels.size())}, DType::kUInt8};
  spec_.action = ActionSpec::discrete(kNumActions);
  // The reference's action_map ['n','l','u','r','d','f'], spelled out.
  spec_.action_names = {"noop", "left", "up", "right", "down", "fire"};
  spec_.observation_names = std::move(channels);
}

void Game::reset(std::optional<std::uint64_t> seed, void* obs) {
  if (seed) {
    rng_.reseed(*seed);
    // A seeded reset equals a freshly built, seeded reference Environment.
    // Unseeded resets keep the previous action, as the reference's wrapper
    // does (its last_action survives reset()).
    last_action_ = kNoop;
  }
  terminal_ = false;
  reset_game();
  write_obs(obs);
}

StepResult Game::step(const Action& action, void* obs) {
  int a = action.index;
  if (a < 0 || a >= kNumActions) {
    throw std::invalid_argument(spec_.name + ": action " + std::to_string(a) + " outside [0, 6)");
  }
  // Environment.act: with probability p the previous action is repeated.
  if (sticky_prob_ > 0 && rng_.uniform() < sticky_prob_) a = last_action_;
  last_action_ = a;
  StepResult r;
  if (!terminal_) {  // the reference answers (0, True) once terminal
    const Outcome o = act(a);
    terminal_ = o.terminal;
    r.reward = static_cast<float>(o.reward);
  }
  r.terminated = terminal_;
  write_obs(obs);
  return r;
}

void Game::write_obs(void* obs) const {
  std::memset(obs, 0, spec_.observation.bytes());
  Frame frame(static_cast<std::uint8_t*>(obs), static_cast<int>(spec_.observation.shape[2]));
  draw(frame);
}

bool Game::render_rgb(RgbImage& out) {
  picture_obs_.resize(spec_.observation.bytes());
  write_obs(picture_obs_.data());
  minatar_draw::draw(picture_obs_.data(), kGridSize, static_cast<int>(spec_.observation.shape[2]), out);
  return true;
}

double Game::render_fps() const { return minatar_draw::kFps; }

}  // namespace seedrl::minatar
