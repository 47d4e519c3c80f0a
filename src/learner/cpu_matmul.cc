#include "seedrl/learner/cpu_matmul.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <ATen/ATen.h>

#ifdef SEEDRL_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace seedrl {

namespace {

std::string shape_of(const at::Tensor& t) {
  std::string s = "[";
  for (std::int64_t d = 0; d < t.dim(); ++d) s += (d ? ", " : "") + std::to_string(t.size(d));
  return s + "]";
}

void check_shapes(const at::Tensor& out, const at::Tensor& a, const at::Tensor& b, const at::Tensor* bias) {
  const bool ok = a.dim() == 2 && b.dim() == 2 && out.dim() == 2 && a.size(1) == b.size(0) &&
                  out.size(0) == a.size(0) && out.size(1) == b.size(1) &&
                  (bias == nullptr || (bias->dim() == 1 && bias->size(0) == b.size(1)));
  if (!ok)
    throw std::invalid_argument("CpuMatmul: " + shape_of(a) + " x " + shape_of(b) + " into " + shape_of(out) +
                                (bias ? " with bias " + shape_of(*bias) : std::string()) + " do not chain");
}

void activate(at::Tensor& out, CpuMatmul::Activation activation) {
  if (activation == CpuMatmul::Activation::kRelu) out.relu_();
  if (activation == CpuMatmul::Activation::kTanh) out.tanh_();
}

// LibTorch's own product: any device and dtype.
void aten_matmul(at::Tensor& out, const at::Tensor& a, const at::Tensor& b, const at::Tensor* bias,
                 CpuMatmul::Activation activation) {
  if (bias)
    at::addmm_out(out, *bias, a, b);
  else
    at::mm_out(out, a, b);
  activate(out, activation);
}

}  // namespace

#ifdef SEEDRL_HAVE_ONEDNN

namespace {

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// A 2-d float32 view's memory descriptor with its own strides; a dimension of
// size 1 gets a stride that cannot overlap the other (LibTorch leaves those arbitrary).
dnnl::memory::desc view_desc(std::int64_t rows, std::int64_t cols, std::int64_t row_stride, std::int64_t col_stride) {
  if (cols == 1) col_stride = 1;
  if (rows == 1) row_stride = cols * col_stride;
  return dnnl::memory::desc({rows, cols}, dnnl::memory::data_type::f32, {row_stride, col_stride});
}

}  // namespace

struct CpuMatmul::Primitive {
  // M, K, N, a's and b's strides, 1 + the bias's stride (0: none), the activation.
  using Key = std::array<std::int64_t, 9>;
  Key key{};
  bool fallback = false;  // oneDNN has no kernel for these strides: LibTorch's product
  dnnl::matmul matmul;
  dnnl::stream stream;
  dnnl::memory src, weights, bias, dst, scratchpad;
  at::Tensor scratch;  // the primitive's scratchpad (user mode: nothing is shared between objects)
  std::unordered_map<int, dnnl::memory> args;

  Primitive(const Key& k, const at::Tensor& a, const at::Tensor& b, const at::Tensor* bias_tensor,
            Activation activation)
      : key(k) {
    const std::int64_t m = a.size(0), kk = a.size(1), n = b.size(1);
    // oneDNN refuses some strides (an expanded view's 0, say), when describing
    // them or making the primitive: those shapes take LibTorch's product.
    try {
      const dnnl::memory::desc a_md = view_desc(m, kk, a.stride(0), a.stride(1));
      const dnnl::memory::desc b_md = view_desc(kk, n, b.stride(0), b.stride(1));
      const dnnl::memory::desc c_md({m, n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
      const dnnl::memory::desc bias_md = bias_tensor
                                             ? dnnl::memory::desc({1, n}, dnnl::memory::data_type::f32,
                                                                  {n * bias_tensor->stride(0), bias_tensor->stride(0)})
                                             : dnnl::memory::desc();
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      if (activation != Activation::kNone) {
        const dnnl::algorithm algo =
            activation == Activation::kRelu ? dnnl::algorithm::eltwise_relu : dnnl::algorithm::eltwise_tanh;
        dnnl::post_ops ops;
#if DNNL_VERSION_MAJOR >= 3
        ops.append_eltwise(algo, 0.f, 0.f);
#else
        ops.append_eltwise(1.f, algo, 0.f, 0.f);
#endif
        attr.set_post_ops(ops);
      }
      dnnl::engine& engine = cpu_engine();
#if DNNL_VERSION_MAJOR >= 3
      const dnnl::matmul::primitive_desc pd(engine, a_md, b_md, bias_md, c_md, attr);
#else
      const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, bias_md, c_md), attr, engine);
#endif
      matmul = dnnl::matmul(pd);
      stream = dnnl::stream(engine);
      src = dnnl::memory(a_md, engine, DNNL_MEMORY_NONE);
      weights = dnnl::memory(b_md, engine, DNNL_MEMORY_NONE);
      dst = dnnl::memory(c_md, engine, DNNL_MEMORY_NONE);
      if (bias_tensor) bias = dnnl::memory(bias_md, engine, DNNL_MEMORY_NONE);
      const std::size_t bytes = pd.scratchpad_desc().get_size();
      scratch = at::empty({static_cast<std::int64_t>(bytes) + 1}, at::TensorOptions().dtype(at::kByte));
      scratchpad = dnnl::memory(pd.scratchpad_desc(), engine, scratch.data_ptr());
      // Handles share their memory objects: run() only points them at the call's data.
      args = {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}, {DNNL_ARG_SCRATCHPAD, scratchpad}};
      if (bias_tensor) args.emplace(DNNL_ARG_BIAS, bias);
    } catch (const dnnl::error&) {
      fallback = true;
    }
  }

  void run(at::Tensor& out, const at::Tensor& a, const at::Tensor& b, const at::Tensor* bias_tensor) {
    src.set_data_handle(const_cast<void*>(a.data_ptr()));
    weights.set_data_handle(const_cast<void*>(b.data_ptr()));
    dst.set_data_handle(out.data_ptr());
    if (bias_tensor) bias.set_data_handle(const_cast<void*>(bias_tensor->data_ptr()));
    matmul.execute(stream, args);
    stream.wait();
  }
};

bool CpuMatmul::uses_onednn() { return true; }

#else

struct CpuMatmul::Primitive {};

bool CpuMatmul::uses_onednn() { return false; }

#endif

CpuMatmul::CpuMatmul() = default;
CpuMatmul::~CpuMatmul() = default;
CpuMatmul::CpuMatmul(CpuMatmul&&) noexcept = default;
CpuMatmul& CpuMatmul::operator=(CpuMatmul&&) noexcept = default;

void CpuMatmul::run(at::Tensor& out, const at::Tensor& a, const at::Tensor& b, const at::Tensor* bias,
                    Activation activation) {
  check_shapes(out, a, b, bias);
#ifdef SEEDRL_HAVE_ONEDNN
  const auto f32_cpu = [](const at::Tensor& t) { return t.device().is_cpu() && t.scalar_type() == at::kFloat; };
  const bool eligible = f32_cpu(out) && f32_cpu(a) && f32_cpu(b) && (bias == nullptr || f32_cpu(*bias)) &&
                        out.is_contiguous() && a.numel() > 0 && b.numel() > 0 && out.numel() > 0;
  if (eligible) {
    const Primitive::Key key{a.size(0),
                             a.size(1),
                             b.size(1),
                             a.stride(0),
                             a.stride(1),
                             b.stride(0),
                             b.stride(1),
                             bias ? 1 + bias->stride(0) : 0,
                             static_cast<std::int64_t>(activation)};
    if (!primitive_ || primitive_->key != key) primitive_ = std::make_unique<Primitive>(key, a, b, bias, activation);
    if (!primitive_->fallback) {
      primitive_->run(out, a, b, bias);
      return;
    }
  }
#endif
  aten_matmul(out, a, b, bias, activation);
}

}  // namespace seedrl
