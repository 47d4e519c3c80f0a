#!/usr/bin/env bash
# One device call's worth of GPU work, in priority order, each step cut by its
# own timeout so that what finished comes back: build seedrl and its tests
# against the CUDA LibTorch, the learner profile, atari:pong end to end, the
# [.gpu] tests. A second call on the warm machine (build kept) runs
#   bash bench/cuda/gpu-session.sh more
# : the eager and shallow-net Pong rows and the GPU Pong config's training
# for what is left of SEEDRL_SESSION_SECONDS.
#   bash bench/cuda/gpu-session.sh suite
# : the build, the [.gpu] tests, two learner replicas sharing the GPU, Pong
# end to end with SEEDRL_INFERENCE_THREADS (default 4) inference threads on the
# shallow net, then the whole CTest suite for what is left (carry the CPU
# build's CTestCostData.txt as .device/CTestCostData.txt: longest first).
set -uo pipefail
cd "$(dirname "$0")/../.."
START=$(date +%s)
BUDGET=${SEEDRL_SESSION_SECONDS:-560}
left() { echo $((BUDGET - ($(date +%s) - START))); }
R=bench/cuda/run-on-gpu.sh
# run-on-gpu.sh writes many files; few come back from the device machine, so
# each step's logs go back packed (logs.tar.gz) beside steps.log.
BACK=${OUT:-$PWD/cuda-results}
export OUT=/tmp/gpu-session
mkdir -p "$OUT" "$BACK"
trap 'cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null' EXIT
export SEEDRL_BENCH_SECONDS=${SEEDRL_BENCH_SECONDS:-3}
PLAN=${1:-first}
if [[ $PLAN == suite ]]; then
  SEEDRL_TARGETS="seedrl seedrl_tests seedrl_env_tests" bash $R build || exit 1
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  SEEDRL_GPU_TEST_TIMEOUT=150 bash $R gpu-tests
  SEEDRL_TRAIN_SECONDS=30 bash $R replicas-train
  SEEDRL_INFERENCE_THREADS=${SEEDRL_INFERENCE_THREADS:-4} SEEDRL_PONG_E2E=shallow bash $R pong-e2e
  SEEDRL_TEST_TIMEOUT=$(($(left) - 15)) bash $R ctest
elif [[ $PLAN == first ]]; then
  SEEDRL_TARGETS="seedrl seedrl_tests" bash $R build || exit 1
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  bash $R profile
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  SEEDRL_PONG_E2E=deep bash $R pong-e2e
  SEEDRL_GPU_TEST_TIMEOUT=$(($(left) - 10)) bash $R gpu-tests
else
  SEEDRL_PONG_E2E=eager bash $R pong-e2e
  SEEDRL_PONG_E2E=shallow bash $R pong-e2e
  SEEDRL_TRAIN_SECONDS=$(($(left) - 45)) bash $R pong-train
fi
