// measure_forward_ns: the start-up probe --learner-cpus auto weighs the
// learner's passes with.
#include <catch2/catch.hpp>

#include <cmath>

#include "seedrl/env/spec.h"
#include "seedrl/model/forward_cost.h"

using namespace seedrl;

namespace {
EnvSpec atari_frames() {
  EnvSpec spec;
  spec.name = "test:frames";
  spec.observation = ArraySpec{{84, 84, 4}, DType::kUInt8};
  spec.action = ActionSpec::discrete(6);
  return spec;
}
}  // namespace

TEST_CASE("a sample's forward pass costs more through IMPALA's deep ResNet than its shallow net", "[model]") {
  // The deep net's first stack alone convolves every 84x84 pixel with 16
  // 3x3 filters, about ten times the shallow net's strided layers' work:
  // a gap no scheduling noise closes (CPU time is measured, not wall time).
  const EnvSpec spec = atari_frames();
  ModelConfig shallow, deep;
  shallow.torso = "impala-shallow";
  deep.torso = "impala";
  const double s = measure_forward_ns(spec, shallow, 6, 8, 0.02);
  const double d = measure_forward_ns(spec, deep, 6, 8, 0.02);
  CAPTURE(s, d);
  CHECK(std::isfinite(s));
  CHECK(s > 0);
  CHECK(d > 2 * s);
}

TEST_CASE("the forward probe refuses an empty batch", "[model]") {
  ModelConfig mlp;
  mlp.torso = "mlp";
  EnvSpec spec;
  spec.observation = ArraySpec{{4}, DType::kFloat32};
  spec.action = ActionSpec::discrete(2);
  CHECK_THROWS_AS(measure_forward_ns(spec, mlp, 2, 0), std::invalid_argument);
  CHECK(measure_forward_ns(spec, mlp, 2, 4, 0.001) > 0);
}
