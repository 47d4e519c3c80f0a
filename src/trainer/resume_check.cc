#include "seedrl/trainer/resume_check.h"

#include <sstream>

#include "seedrl/model/torso.h"

namespace seedrl {

namespace {

template <class T>
std::string text(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string text(const std::vector<int>& v) {
  std::ostringstream s;
  for (std::size_t i = 0; i < v.size(); ++i) s << (i ? " " : "") << v[i];
  return s.str();
}

std::string text(bool v) { return v ? "on" : "off"; }

}  // namespace

std::string resume_mismatch(const TrainConfig& saved, const TrainConfig& run) {
  std::string out;
  auto same = [&out](const char* flag, const auto& was, const auto& now) {
    if (out.empty() && !(was == now)) {
      std::ostringstream s;
      s << flag << ' ' << text(now) << " differs from the checkpoint's " << text(was);
      out = s.str();
    }
  };
  same("--algo", saved.algo, run.algo);
  same("--env", saved.env, run.env);
  // 0 stands for the env's own default: compare what each stacks.
  same("--frame-stack", EnvRegistry::builtin().frame_stack(saved.env, saved.env_options),
       EnvRegistry::builtin().frame_stack(run.env, run.env_options));
  if (!out.empty()) return out;
  // "auto" and the torso it stands for are the same network.
  const ArraySpec obs = EnvRegistry::builtin().make(run.env, run.env_options)->spec().observation;
  same("--model", resolve_torso(obs, saved.model.torso), resolve_torso(obs, run.model.torso));
  if (resolve_torso(obs, run.model.torso) == "mlp") {
    same("--hidden", saved.model.hidden, run.model.hidden);
    same("--activation", saved.model.activation, run.model.activation);
  }
  same("--separate-value-net", saved.model.separate_value_net, run.model.separate_value_net);
  same("--prev-action-input", saved.model.prev_action_input, run.model.prev_action_input);
  same("--lstm", saved.model.lstm, run.model.lstm);
  if (run.model.lstm) same("--lstm-size", saved.model.lstm_size, run.model.lstm_size);
  same("--normalize-obs", saved.model.normalize_obs, run.model.normalize_obs);
  same("--optimizer", saved.learner.optimizer.name, run.learner.optimizer.name);
  return out;
}

}  // namespace seedrl
