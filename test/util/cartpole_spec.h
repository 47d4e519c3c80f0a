// The spec of seedrl's cartpole (4 floats in, 2 actions), written out so that
// tests of models and checkpoints need no environment.
#pragma once

#include "seedrl/env/spec.h"

namespace seedrl::test {

inline EnvSpec cartpole_spec() {
  EnvSpec s;
  s.name = "cartpole";
  s.observation = ArraySpec{{4}, DType::kFloat32};
  s.action = ActionSpec::discrete(2);
  return s;
}

}  // namespace seedrl::test
