// One float32 matrix product on the calling thread, with the layer's bias and
// activation folded in: out = a b (+ bias) (then ReLU or tanh). Built with
// oneDNN (Debian's libdnnl-dev, the library LibTorch's own CPU kernels use),
// it runs oneDNN's matmul, made once per shape and kept: on the AVX-512 CPUs
// we train on it multiplies the 256-wide layers of SAC's networks markedly
// faster than LibTorch's at::mm (OpenBLAS in Debian's build), and the bias
// and activation cost no extra pass over the output (bench/RESULTS.md).
// Without oneDNN, or for tensors other than float32 on the CPU, it is
// at::addmm_out / at::mm_out and the activation in place.
//
// a and b may be any strided views (a transposed weight is read where it
// lies); out must be a contiguous [M, N] float32 buffer of the caller's.
// One object serves one call site on one thread: it keeps the primitive and
// the scratch memory of the last shape it saw.
#pragma once

#include <memory>

#include <ATen/core/Tensor.h>

namespace seedrl {

class CpuMatmul {
 public:
  enum class Activation { kNone, kRelu, kTanh };

  CpuMatmul();
  ~CpuMatmul();
  CpuMatmul(CpuMatmul&&) noexcept;
  CpuMatmul& operator=(CpuMatmul&&) noexcept;

  // out [M, N] = a [M, K] b [K, N] (+ bias [N], broadcast over rows), then
  // `activation`. Throws std::invalid_argument for shapes that do not chain.
  void run(at::Tensor& out, const at::Tensor& a, const at::Tensor& b, const at::Tensor* bias = nullptr,
           Activation activation = Activation::kNone);

  // Whether this build multiplies through oneDNN.
  static bool uses_onednn();

 private:
  struct Primitive;
  std::unique_ptr<Primitive> primitive_;
};

}  // namespace seedrl
