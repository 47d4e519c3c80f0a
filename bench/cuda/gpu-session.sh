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
#   bash bench/cuda/gpu-session.sh next
# : what session 68's figures point at next (see the plan's comment).
#   bash bench/cuda/gpu-session.sh verify
# : the build, the [.gpu] tests and the whole CTest suite first (code changed
# since the last lent machine), then `benches` for what is left.
#   bash bench/cuda/gpu-session.sh benches
# : on the warm machine, MinAtar and Pong with inference answering actors
# before and after recording, alternated.
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
pack() { tar -C "$OUT" -czf "$OUT/logs.tar.gz" --exclude logs.tar.gz $(cd "$OUT" && ls) 2>/dev/null; }
trap 'pack; cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null' EXIT
export SEEDRL_BENCH_SECONDS=${SEEDRL_BENCH_SECONDS:-3}
PLAN=${1:-first}
if [[ $PLAN == suite ]]; then
  SEEDRL_TARGETS="seedrl seedrl_tests seedrl_env_tests" bash $R build || exit 1
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  SEEDRL_GPU_TEST_TIMEOUT=150 bash $R gpu-tests
  SEEDRL_TRAIN_SECONDS=30 bash $R replicas-train
  SEEDRL_INFERENCE_THREADS=${SEEDRL_INFERENCE_THREADS:-4} SEEDRL_PONG_E2E=shallow bash $R pong-e2e
  SEEDRL_TEST_TIMEOUT=$(($(left) - 15)) bash $R ctest
elif [[ $PLAN == next ]]; then
  # After session 68: the whole suite again (its fixes were checked on CPU
  # only), then MinAtar Breakout with more envs per batch (end to end it was
  # bound by the round trip, not by a busy stage: actors 99.8% waiting,
  # inference threads 41% idle), then Pong's deep ResNet with larger batches.
  SEEDRL_TARGETS="seedrl seedrl_tests seedrl_env_tests" bash $R build || exit 1
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  SEEDRL_GPU_TEST_TIMEOUT=150 bash $R gpu-tests
  SEEDRL_BENCH_ONLY="minatar-envs --env minatar:breakout --model minatar --actors 512 --envs-per-actor 32 --inference-batch 8192 --inference-threads 4 --batch-size 512 --torch-threads 4 --sweep envs-per-actor=32,48,64" \
    bash $R bench
  SEEDRL_BENCH_ONLY="pong-deep-b128 --env atari:pong --model impala --actors 256 --envs-per-actor 8 --inference-batch 1024 --inference-threads 2 --batch-size 128 --torch-threads 4 --sweep actors=256" \
    bash $R bench
  SEEDRL_TEST_TIMEOUT=$(($(left) - 15)) bash $R ctest
elif [[ $PLAN == verify ]]; then
  SEEDRL_TARGETS="seedrl seedrl_tests seedrl_env_tests" bash $R build || exit 1
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  SEEDRL_GPU_TEST_TIMEOUT=150 bash $R gpu-tests
  cp "$OUT/steps.log" "$OUT/logs.tar.gz" "$BACK/" 2>/dev/null
  SEEDRL_TEST_TIMEOUT=$(($(left) - 15)) bash $R ctest
elif [[ $PLAN == benches ]]; then
  # Inference answering its actors before recording (the default) against
  # after, alternated: MinAtar Breakout with session 68's flags (its figures:
  # bench/RESULTS.md), then Pong's shallow and deep nets.
  SEEDRL_BENCH_ONLY="minatar-answer-first --env minatar:breakout --model minatar --actors 512 --envs-per-actor 32 --inference-batch 4096 --inference-threads 4 --batch-size 512 --torch-threads 4 --sweep inference-answer-first=1,0,1,0" \
    bash $R bench
  SEEDRL_BENCH_ONLY="pong-shallow-answer-first --env atari:pong --model impala-shallow --actors 256 --envs-per-actor 8 --inference-batch 1024 --inference-threads 2 --batch-size 64 --torch-threads 4 --sweep inference-answer-first=1,0,1,0" \
    bash $R bench
  SEEDRL_BENCH_ONLY="pong-deep-b128 --env atari:pong --model impala --actors 256 --envs-per-actor 8 --inference-batch 1024 --inference-threads 2 --batch-size 128 --torch-threads 4 --sweep inference-answer-first=1,0" \
    bash $R bench
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
