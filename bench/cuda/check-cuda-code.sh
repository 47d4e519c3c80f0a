#!/usr/bin/env bash
# Syntax-checks the CUDA-only code (compiled out of the CPU build) on a machine
# without CUDA: stand-in declarations of the few CUDA runtime names that
# LibTorch's c10/cuda and ATen/cuda headers use are written to a temporary
# folder, and each file is compiled with -fsyntax-only and SEEDRL_WITH_CUDA, once
# against the installed LibTorch's CUDAGraph.h and once against a copy with
# LibTorch 2.x's capture_begin(pool, capture_mode). Code that reaches into
# LibTorch's optimizer state is also checked against a copy of optimizer.h
# keyed as 2.x keys it (by TensorImpl address, not its string), and the CPU
# allocator against 2.3's Allocator (allocate non-const, copy_data). It proves
# nothing about behaviour: bench/cuda/run-on-gpu.sh builds and tests the real
# thing.
set -euo pipefail
cd "$(dirname "$0")/../.."
FILES=(src/util/cuda_graphs.cc)
STUB=$(mktemp -d)
trap 'rm -rf "$STUB"' EXIT
mkdir -p "$STUB/v1/c10/cuda/impl" "$STUB/v2/ATen/cuda" "$STUB/v2/torch"
cat > "$STUB/v1/cuda_runtime_api.h" <<'H'
#pragma once
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;
typedef enum cudaError { cudaSuccess = 0, cudaErrorNotReady = 600 } cudaError_t;
typedef enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed } cudaStreamCaptureMode;
typedef enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone, cudaStreamCaptureStatusActive, cudaStreamCaptureStatusInvalidated } cudaStreamCaptureStatus;
typedef enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1 } cudaMemcpyKind;
#define CUDA_VERSION 12000
#define CUDART_VERSION 12000
const char* cudaGetErrorString(cudaError_t);
cudaError_t cudaGetLastError();
cudaError_t cudaStreamQuery(cudaStream_t);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamGetPriority(cudaStream_t, int*);
cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus*);
cudaError_t cudaGetDeviceCount(int*);
cudaError_t cudaGetDevice(int*);
cudaError_t cudaSetDevice(int);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode*);
cudaError_t cudaMemcpyAsync(void*, const void*, unsigned long, cudaMemcpyKind, cudaStream_t);
cudaError_t cudaDeviceGetStreamPriorityRange(int*, int*);
H
cp "$STUB/v1/cuda_runtime_api.h" "$STUB/v1/cuda.h"
cp "$STUB/v1/cuda_runtime_api.h" "$STUB/v1/cuda_runtime.h"
: > "$STUB/v1/c10/cuda/impl/cuda_cmake_macros.h"
# LibTorch 2.x: capture_begin takes the capture mode.
sed 's/void capture_begin(MempoolId_t pool={0, 0});/void capture_begin(MempoolId_t pool={0, 0}, cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeGlobal);/' \
  /usr/include/ATen/cuda/CUDAGraph.h > "$STUB/v2/ATen/cuda/CUDAGraph.h"
printf '#pragma once\n#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 0\n' > "$STUB/v2/torch/version.h"
for f in "${FILES[@]}"; do
  for v in v1 v2; do
    inc=(-I "$STUB/v1")
    [[ $v == v2 ]] && inc=(-I "$STUB/v2" "${inc[@]}")
    g++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -DSEEDRL_WITH_CUDA=1 -I include "${inc[@]}" \
      -I /usr/include/torch/csrc/api/include "$f"
    echo "ok  $f (LibTorch ${v#v}.x API)"
  done
done
# LibTorch 2.x keys Optimizer::state() by void*, 1.x by std::string.
OPT_FILES=(src/learner/device_optimizer_step.cc src/io/checkpoint_optimizer.cc)
mkdir -p "$STUB/opt2/torch/optim"
D=/usr/include/torch/csrc/api/include/torch/optim
sed 's/ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>/ska::flat_hash_map<void*, std::unique_ptr<OptimizerParamState>>/g' \
  "$D/optimizer.h" > "$STUB/opt2/torch/optim/optimizer.h"
grep -q 'flat_hash_map<void\*' "$STUB/opt2/torch/optim/optimizer.h"
# ...and the 1.x headers that index it by string, index it as 2.x does.
sed 's/\.state()\[c10::guts::to_string(\(params\[idx\]\.unsafeGetTensorImpl()\))\]/.state()[\1]/' \
  "$D/serialize.h" > "$STUB/opt2/torch/optim/serialize.h"
sed 's/state_\[c10::guts::to_string(\(p\.unsafeGetTensorImpl()\))\]/state_[\1]/' \
  "$D/adagrad.h" > "$STUB/opt2/torch/optim/adagrad.h"
for f in "${OPT_FILES[@]}"; do
  for v in v1 v2; do
    inc=()
    [[ $v == v2 ]] && inc=(-isystem "$STUB/opt2")
    # -isystem: LibTorch's own headers are not held to our warnings.
    g++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I include "${inc[@]}" \
      -isystem /usr/include/torch/csrc/api/include "$f"
    echo "ok  $f (LibTorch ${v#v}.x optimizer state)"
  done
done
# LibTorch 2.3+ declares Allocator::allocate non-const and copy_data pure virtual.
mkdir -p "$STUB/alloc2/c10/core"
sed 's/virtual DataPtr allocate(size_t n) const = 0;/virtual DataPtr allocate(size_t n) = 0;\n  virtual void copy_data(void* dest, const void* src, std::size_t count) const = 0;/' \
  /usr/include/c10/core/Allocator.h > "$STUB/alloc2/c10/core/Allocator.h"
grep -q 'copy_data' "$STUB/alloc2/c10/core/Allocator.h"
for v in v1 v2; do
  inc=()
  [[ $v == v2 ]] && inc=(-isystem "$STUB/alloc2")
  g++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I include "${inc[@]}" \
    -isystem /usr/include/torch/csrc/api/include src/util/caching_cpu_allocator.cc
  echo "ok  src/util/caching_cpu_allocator.cc (LibTorch ${v#v}.x Allocator)"
done
