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
#   bash bench/cuda/run-on-gpu.sh [build|test|ctest|gpu-tests|replicas-train|bench|profile|pong-e2e|pong-train|atari|atari-bench|atari-train|all]   # on the GPU machine
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
  # ALE for the atari:* environments, from the tarball fetch-debs.sh copied.
  ALE_ARGS=()
  ale_tar=$(ls .device/ale/ale-*-src.tar.gz 2>/dev/null | head -1)
  if [[ -n $ale_tar ]]; then
    # install-ale.sh needs zlib's header where ALE's CMake looks for it.
    if [[ ! -f /usr/include/zlib.h ]]; then
      cp "$PREFIX"/usr/include/zlib.h "$PREFIX"/usr/include/zconf.h /usr/include/
      [[ -e /usr/lib/x86_64-linux-gnu/libz.so ]] || ln -s libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so
    fi
    log "ALE from $ale_tar"
    bash third_party/install-ale.sh "$ale_tar" "$PWD/.device/ale-install" > "$OUT/ale.log" 2>&1 \
      && ALE_ARGS=(-DALE_ROOT="$PWD/.device/ale-install" -DSEEDRL_ATARI_ROMS="$PWD/.device/ale/roms") \
      || { log "ALE build failed"; tail -20 "$OUT/ale.log"; }
  fi
  # An installed seedrl (the cli/install test) finds libgif where the system looks.
  for so in "$PREFIX"/usr/lib/x86_64-linux-gnu/libgif.so.7*; do
    [[ -e $so && ! -e /usr/lib/x86_64-linux-gnu/$(basename "$so") ]] && cp -a "$so" /usr/lib/x86_64-linux-gnu/
  done
  # The charts `seedrl report` and the dashboard inline (libjs-dygraphs).
  DYGRAPHS_JS=$PREFIX/usr/share/javascript/dygraphs/dygraph.min.js
  [[ -f $DYGRAPHS_JS ]] && ALE_ARGS+=(-DSEEDRL_DYGRAPHS_JS="$DYGRAPHS_JS")
  # NCCL's header comes with PyTorch's nvidia-nccl wheel.
  export NCCL_ROOT=${NCCL_ROOT:-$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)}
  TORCH_PREFIX=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' >> "$OUT/gpu.txt"
  log "configure against $TORCH_PREFIX"
  # One source per job: the CUDA-only code (SEEDRL_WITH_CUDA) has not yet been
  # compiled in unity batches, and 16 cores gain little from them.
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSEEDRL_UNITY_BUILD=OFF \
    -DCMAKE_PREFIX_PATH="$PREFIX/usr;$TORCH_PREFIX" \
    -DCMAKE_CXX_FLAGS="-isystem $PREFIX/usr/include" \
    -DTORCH_CUDA_ARCH_LIST="9.0" -DCAFFE2_USE_CUDNN=ON "${ALE_ARGS[@]}" > "$OUT/configure.log" 2>&1 \
    || { log "configure failed"; tail -40 "$OUT/configure.log"; exit 1; }
  grep -E "ALE|NCCL|fmt" "$OUT/configure.log" | tee -a "$OUT/steps.log"
  grep -q "SEEDRL_NCCL_INCLUDE_DIR:PATH=/" "$BUILD/CMakeCache.txt" && log "NCCL header found" || log "NCCL header NOT found"
  log "build with $JOBS jobs"
  # SEEDRL_TARGETS="seedrl seedrl_tests" builds only those (default: all); -k 0 shows every failing source at once.
  cmake --build "$BUILD" -j "$JOBS" ${SEEDRL_TARGETS:+--target $SEEDRL_TARGETS} -- -k 0 > "$OUT/build.log" 2>&1 \
    || { log "build failed"; grep -E "error|Error" "$OUT/build.log" | head -40; exit 1; }
  log "built"
fi

# The hidden [.gpu] tests alone: inference devices, data-parallel learners on
# the GPUs (NCCL: a single-rank group on a one-GPU machine), CUDA graphs and
# bf16 torsos, against CPU references.
gpu_tests() {
  timeout ${SEEDRL_GPU_TEST_TIMEOUT:-300} "$BUILD/test/seedrl_tests" "[.gpu]" --durations yes > "$OUT/gpu-tests.log" 2>&1
  log "gpu tests rc=$? $(grep -E '^test cases' "$OUT/gpu-tests.log" | tail -1)"
  grep -B2 -A12 "FAILED" "$OUT/gpu-tests.log" | head -60
}
if [[ $STEP == gpu-tests ]]; then
  gpu_tests
fi

# The whole CTest suite on the CUDA build, cut at SEEDRL_TEST_TIMEOUT seconds.
# The CPU build's CTestCostData.txt, when carried in .device/, starts the
# longest tests first. Left out: the two-host namespace test and the Slurm
# launch (minutes each, nothing GPU-specific) and clang-format (not installed).
run_ctest() {
  log "ctest"
  if [[ -f .device/CTestCostData.txt ]]; then
    mkdir -p "$BUILD/Testing/Temporary" && cp .device/CTestCostData.txt "$BUILD/Testing/Temporary/"
  fi
  timeout -k 10 ${SEEDRL_TEST_TIMEOUT:-300} ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure \
    -E "^(cli/learner_hosts|deploy/slurm_launch|format/.*)$" > "$OUT/ctest.log" 2>&1
  log "ctest rc=$? $(grep -E 'tests passed' "$OUT/ctest.log")"
  grep -A200 "The following tests FAILED" "$OUT/ctest.log" | tee -a "$OUT/steps.log"
  # What had not finished when the timeout cut it.
  grep -oE "Start +[0-9]+: [^ ]+" "$OUT/ctest.log" | awk '{print $3}' | sort > "$OUT/started.txt"
  grep -oE "Test +#[0-9]+: [^ ]+" "$OUT/ctest.log" | awk '{print $3}' | sort > "$OUT/finished.txt"
  comm -23 "$OUT/started.txt" "$OUT/finished.txt" | sed 's/^/unfinished: /' | tee -a "$OUT/steps.log"
}
if [[ $STEP == ctest ]]; then
  run_ctest
fi
if [[ $STEP == test || $STEP == all ]]; then
  run_ctest
  # The hidden [.gpu] tests: inference devices and data-parallel learners on
  # the GPUs (NCCL where there are two or more), against CPU references.
  log "gpu tests"
  gpu_tests
  if grep -q SEGFAULT "$OUT/ctest.log" && command -v gdb > /dev/null; then
    name=$(grep -m1 -oP '\d+ - \K.*(?= \(SEGFAULT\))' "$OUT/ctest.log")
    gdb -batch -ex run -ex bt --args "$BUILD/test/seedrl_tests" "$name" 2>&1 | tail -30 | tee -a "$OUT/steps.log"
  fi
fi

B="$BUILD/seedrl bench --device cuda --seconds ${SEEDRL_BENCH_SECONDS:-5} --warmup-s 1"
run_bench() {  # name, then bench flags
  local name=$1; shift
  log "bench $name: $*"
  timeout 120 $B "$@" --json "$OUT/bench-$name.json" > "$OUT/bench-$name.txt" 2>&1
  log "bench $name rc=$?"
}
# Real Atari (ALE), IMPALA's deep ResNet, 256x8 envs on the 16 cores.
ATARI="--env atari:pong --model impala --actors 256 --envs-per-actor 8 --inference-batch 1024 --inference-threads 2 --batch-size 64 --torch-threads 4"
# A time-boxed training run (SIGINT saves and prints the summary): name,
# seconds, then train flags. Only the log, metrics and summary come back.
run_train() {
  local name=$1 secs=$2; shift 2
  log "train $name (${secs} s): $*"
  timeout -s INT -k 30 "$secs" "$BUILD/seedrl" train --device cuda --logdir "/tmp/train-$name" "$@" \
    > "$OUT/train-$name.log" 2>&1
  log "train $name rc=$? $(grep -E 'done:' "$OUT/train-$name.log")"
  cp "/tmp/train-$name/metrics.csv" "$OUT/train-$name-metrics.csv" 2>/dev/null
  cp "/tmp/train-$name/summary.json" "$OUT/train-$name-summary.json" 2>/dev/null
}

# The atari:pong rows alone: the bench per variant (most of each goes to
# making its stages' 3 x 2,048 emulators), then the committed CPU config and a
# GPU-sized one trained for two minutes each (the start makes the envs:
# metrics.csv has the rate after). With a build, too long for one device
# call: split with atari-bench and atari-train on the warm machine.
if [[ $STEP == atari || $STEP == atari-bench ]]; then
  run_bench atari-pong $ATARI
  run_bench atari-pong-eager $ATARI --cuda-graphs off
  run_bench atari-pong-b256 ${ATARI/--batch-size 64/--batch-size 256}
fi
if [[ $STEP == atari || $STEP == atari-train ]]; then
  run_train pong-gpu ${SEEDRL_TRAIN_SECONDS:-120} --config configs/atari-pong.toml \
    --actors 256 --envs-per-actor 8 --batch-size 64 --torch-threads 4 --inference-threads 2
  run_train pong-config ${SEEDRL_TRAIN_SECONDS:-120} --config configs/atari-pong.toml
fi

# One learner update taken apart (`seedrl bench --profile-learner`), per
# variant: the default (channels-last fp32, cuDNN heuristics), bf16, batches
# of 256, the shallow net. (NCHW activations and cuDNN autotuning were
# measured once with experiment knobs, 5d31785, and lost: bench/RESULTS.md.)
if [[ $STEP == profile ]]; then
  P="$BUILD/seedrl bench --device cuda --env atari:pong --model impala --batch-size 64 --profile-learner 20"
  profile() {  # name, then env assignments and flags
    local name=$1; shift
    log "profile $name: $*"
    timeout 60 env "$@" > "$OUT/profile-$name.txt" 2>&1
    log "profile $name rc=$? $(grep -E 'unsynchronised' "$OUT/profile-$name.txt")"
  }
  profile default $P
  profile bf16 $P --precision bf16
  profile b256 ${P/--batch-size 64/--batch-size 256}
  profile shallow ${P/--model impala/--model impala-shallow}
fi

# Two learner replicas on the one GPU (through Gloo: NCCL takes one rank per
# GPU), trained as a user runs them: the multi-replica path on a one-GPU machine.
if [[ $STEP == replicas-train ]]; then
  run_train replicas ${SEEDRL_TRAIN_SECONDS:-40} --env cartpole --learner-devices cuda:0,cuda:0 --max-frames 2000000
fi

# atari:pong end to end alone (a one-value sweep skips the stages, measured
# before): the deep ResNet by default and eager, and the shallow net.
# SEEDRL_PONG_E2E=deep|eager|shallow runs one of them.
if [[ $STEP == pong-e2e ]]; then
  E2E=${SEEDRL_PONG_E2E:-deep eager shallow}
  # SEEDRL_INFERENCE_THREADS=N: that many inference threads instead of 2.
  ATARI=${ATARI/--inference-threads 2/--inference-threads ${SEEDRL_INFERENCE_THREADS:-2}}
  [[ $E2E == *deep* ]] && run_bench pong-e2e-deep $ATARI --sweep actors=256
  [[ $E2E == *eager* ]] && run_bench pong-e2e-deep-eager $ATARI --cuda-graphs off --sweep actors=256
  [[ $E2E == *shallow* ]] && run_bench pong-e2e-shallow ${ATARI/--model impala/--model impala-shallow} --sweep actors=256
fi

# The GPU Pong config trained for SEEDRL_TRAIN_SECONDS.
if [[ $STEP == pong-train ]]; then
  run_train pong-gpu ${SEEDRL_TRAIN_SECONDS:-120} --config configs/atari-pong-gpu.toml
fi

if [[ $STEP == bench || $STEP == all ]]; then
  if [[ -n ${SEEDRL_BENCH_ONLY:-} ]]; then  # one row: SEEDRL_BENCH_ONLY="name flags..."
    run_bench $SEEDRL_BENCH_ONLY
    exit 0
  fi
  # In order of what the targets need first: MinAtar Breakout and the
  # Atari-shaped IMPALA workload, each eager (--cuda-graphs off), as run by
  # default (learner update as a CUDA graph), with the inference forward
  # graphed too (all), and with bf16 torsos.
  MINATAR="--env minatar:breakout --model minatar --actors 512 --envs-per-actor 32 --inference-batch 4096 --inference-threads 4 --batch-size 512 --torch-threads 4"
  IMPALA="--env synthetic:atari --model impala --actors 256 --envs-per-actor 8 --inference-batch 1024 --inference-threads 2 --batch-size 64 --torch-threads 4"
  CARTPOLE="--env cartpole --actors 256 --envs-per-actor 16 --inference-threads 2 --batch-size 256"
  for w in MINATAR IMPALA CARTPOLE; do
    name=$(echo $w | tr A-Z a-z)
    run_bench $name-eager ${!w} --cuda-graphs off
    run_bench $name ${!w}
    run_bench $name-graphs-all ${!w} --cuda-graphs all
    [[ $w != CARTPOLE ]] && run_bench $name-bf16 ${!w} --precision bf16
  done
  # Real Atari (ALE) with the IMPALA ResNet, when the build has ALE.
  if "$BUILD/seedrl" envs 2>&1 | grep -q "atari:pong"; then
    run_bench atari-pong $ATARI
  fi
fi
log "done"
# Few files come back from the GPU machine: pack the logs into one.
tar -C "$OUT" -czf "$OUT/logs.tar.gz" --exclude logs.tar.gz $(cd "$OUT" && ls) 2>/dev/null
