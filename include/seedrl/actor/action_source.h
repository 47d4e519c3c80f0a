// Where a local actor thread's actions come from: central inference's
// RequestBatcher implements it. The actor side needs no torch, and tests can
// answer steps without a model.
#pragma once

#include <span>

#include "seedrl/actor/completion.h"
#include "seedrl/env/env_step.h"

namespace seedrl {

class ActionSource {
 public:
  // Blocks until every step has its action written. Returns false once the
  // source has closed (the actions are then unspecified). `completion` is the
  // calling thread's own, reused for every call.
  virtual bool submit(std::span<EnvStep> steps, Completion& completion) = 0;

 protected:
  ~ActionSource() = default;
};

}  // namespace seedrl
