#!/usr/bin/env bash
# Builds seedrl against the CUDA LibTorch of a PyTorch install
# (torch.utils.cmake_prefix_path), runs the test suite and `seedrl bench` on
# the GPU, and writes logs and JSON figures to $OUT (default: ./cuda-results).
#
# The GPU machine has PyTorch, CUDA and most headers but no Debian packages and
# no network. Headers it lacks (Catch2 v2, nlohmann-json, Gloo) are carried as
# .deb files in .device/debs (see fetch-debs.sh) and unpacked with dpkg -x.
#
#   bash bench/cuda/fetch-debs.sh                   # on a Debian 12 machine
#   bash bench/cuda/run-on-gpu.sh [build|test|bench|all]   # on the GPU machine
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/cuda-results}
mkdir -p "$OUT"
STEP=${1:-all}
BUILD=${SEEDRL_CUDA_BUILD:-build-cuda}
PREFIX=$PWD/.device/root
JOBS=$(nproc)

log() { echo "== $(date +%T) $*" | tee -a "$OUT/steps.log"; }

if [[ $STEP == build || $STEP == all ]]; then
  mkdir -p "$PREFIX"
  for deb in .device/debs/*.deb; do [[ -e $deb ]] && dpkg -x "$deb" "$PREFIX"; done
  TORCH_PREFIX=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' >> "$OUT/gpu.txt"
  log "configure against $TORCH_PREFIX"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$PREFIX/usr;$TORCH_PREFIX" \
    -DCMAKE_CXX_FLAGS="-isystem $PREFIX/usr/include" \
    -DTORCH_CUDA_ARCH_LIST="9.0" -DCAFFE2_USE_CUDNN=ON > "$OUT/configure.log" 2>&1 \
    || { log "configure failed"; tail -40 "$OUT/configure.log"; exit 1; }
  log "build with $JOBS jobs"
  cmake --build "$BUILD" -j "$JOBS" > "$OUT/build.log" 2>&1 \
    || { log "build failed"; grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  log "built"
fi

if [[ $STEP == test || $STEP == all ]]; then
  log "ctest"
  timeout ${SEEDRL_TEST_TIMEOUT:-240} ctest --test-dir "$BUILD" -j "$JOBS" --timeout 200 --output-on-failure \
    > "$OUT/ctest.log" 2>&1
  log "ctest rc=$? $(grep -E 'tests passed' "$OUT/ctest.log")"
  grep -A200 "The following tests FAILED" "$OUT/ctest.log" | tee -a "$OUT/steps.log"
  # The hidden [.gpu] tests: inference devices and data-parallel learners on
  # the GPUs (NCCL where there are two or more), against CPU references.
  log "gpu tests"
  timeout 300 "$BUILD/test/seedrl_tests" "[.gpu]" > "$OUT/gpu-tests.log" 2>&1
  log "gpu tests rc=$? $(tail -2 "$OUT/gpu-tests.log" | head -1)"
  if grep -q SEGFAULT "$OUT/ctest.log" && command -v gdb > /dev/null; then
    name=$(grep -m1 -oP '\d+ - \K.*(?= \(SEGFAULT\))' "$OUT/ctest.log")
    gdb -batch -ex run -ex bt --args "$BUILD/test/seedrl_tests" "$name" 2>&1 | tail -30 | tee -a "$OUT/steps.log"
  fi
fi

if [[ $STEP == bench || $STEP == all ]]; then
  B="$BUILD/seedrl bench --device cuda --seconds ${SEEDRL_BENCH_SECONDS:-5} --warmup-s 1"
  run_bench() {  # name, then bench flags
    local name=$1; shift
    log "bench $name: $*"
    timeout 120 $B "$@" --json "$OUT/bench-$name.json" > "$OUT/bench-$name.txt" 2>&1
    log "bench $name rc=$?"
  }
  run_bench cartpole --env cartpole --actors 256 --envs-per-actor 16 --inference-threads 2 --batch-size 256
  run_bench minatar-breakout --env minatar:breakout --model minatar --actors 512 --envs-per-actor 32 \
    --inference-batch 4096 --inference-threads 4 --batch-size 512 --torch-threads 4
  # The same with the inference forward and the learner's update replayed as
  # CUDA graphs.
  run_bench cartpole-graphs --env cartpole --actors 256 --envs-per-actor 16 --inference-threads 2 --batch-size 256 \
    --cuda-graphs
  run_bench minatar-breakout-graphs --env minatar:breakout --model minatar --actors 512 --envs-per-actor 32 \
    --inference-batch 4096 --inference-threads 4 --batch-size 512 --torch-threads 4 --cuda-graphs
  run_bench atari-impala --env synthetic:atari --model impala --actors 256 --envs-per-actor 8 \
    --inference-batch 1024 --inference-threads 2 --batch-size 64 --torch-threads 4
  run_bench atari-impala-graphs --env synthetic:atari --model impala --actors 256 --envs-per-actor 8 \
    --inference-batch 1024 --inference-threads 2 --batch-size 64 --torch-threads 4 --cuda-graphs
  # And with the torsos in bfloat16 (tensor cores).
  run_bench minatar-breakout-bf16 --env minatar:breakout --model minatar --actors 512 --envs-per-actor 32 \
    --inference-batch 4096 --inference-threads 4 --batch-size 512 --torch-threads 4 --cuda-graphs --precision bf16
  run_bench atari-impala-bf16 --env synthetic:atari --model impala --actors 256 --envs-per-actor 8 \
    --inference-batch 1024 --inference-threads 2 --batch-size 64 --torch-threads 4 --cuda-graphs --precision bf16
fi
log "done"
# Few files come back from the GPU machine: pack the logs into one.
tar -C "$OUT" -czf "$OUT/logs.tar.gz" --exclude logs.tar.gz $(cd "$OUT" && ls) 2>/dev/null
