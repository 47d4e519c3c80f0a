#include "seedrl/util/cuda_graphs.h"

#include "seedrl/util/cuda_rng_lock.h"

#include <exception>
#include <string>

#include <spdlog/spdlog.h>

// Compiled in only against a CUDA LibTorch (SEEDRL_WITH_CUDA, set by CMake)
// whose CUDA runtime headers are on the include path; the CPU build has no
// graph code at all.
#if defined(SEEDRL_WITH_CUDA) && __has_include(<ATen/cuda/CUDAGraph.h>) && __has_include(<cuda_runtime_api.h>)
#define SEEDRL_HAVE_CUDA_GRAPHS 1
#include <ATen/cuda/CUDAGraph.h>
#include <c10/core/StreamGuard.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <torch/version.h>
#endif

namespace seedrl {

namespace {
constexpr int kSizesTracked = 16;  // distinct batch sizes counted towards a capture
}

struct CudaGraphs::Impl {
  torch::Device device;
  bool enabled;
  int capture_after, max_graphs;
  int captured = 0;
  bool replayed = false;
  struct Size {
    int batch = -1;
    int seen = 0;
#ifdef SEEDRL_HAVE_CUDA_GRAPHS
    std::unique_ptr<at::cuda::CUDAGraph> graph;
#endif
    std::vector<torch::Tensor> inputs, outputs;  // the graph's static tensors
  };
  std::vector<Size> sizes;  // reserved once: no allocation per batch

  Impl(torch::Device d, bool on, int after, int max)
      : device(d), enabled(on && d.is_cuda() && CudaGraphs::supported()), capture_after(after), max_graphs(max) {
    sizes.reserve(kSizesTracked);
  }

  Size* find(int batch) {
    for (auto& s : sizes)
      if (s.batch == batch) return &s;
    if (sizes.size() >= kSizesTracked) return nullptr;
    sizes.push_back(Size{});
    sizes.back().batch = batch;
    return &sizes.back();
  }

#ifdef SEEDRL_HAVE_CUDA_GRAPHS
  // Captures fn on copies of `inputs`; false (graphs then off for good) if
  // CUDA refused: an op in the forward that cannot be captured.
  bool capture(Size& s, const std::vector<torch::Tensor>& inputs, const Fn& fn) {
    s.inputs.clear();
    for (const auto& t : inputs) s.inputs.push_back(t.defined() ? t.clone() : torch::Tensor());
    c10::impl::VirtualGuardImpl impl(device.type());
    // Nothing of this thread's earlier work may run inside the capture.
    impl.getStream(device).synchronize();
    auto graph = std::make_unique<at::cuda::CUDAGraph>();
    // No other thread may launch a random op on the GPU while this captures.
    const auto rng_lock = lock_cuda_rng_for_capture();
    try {
#if TORCH_VERSION_MAJOR >= 2
      // Thread-local: the learner thread may allocate on the same GPU meanwhile.
      graph->capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
#else
      graph->capture_begin();
#endif
      try {
        s.outputs = fn(s.inputs);
      } catch (...) {
        try {
          graph->capture_end();  // leave the stream out of capture mode
        } catch (...) {
        }
        throw;
      }
      graph->capture_end();
    } catch (const std::exception& e) {
      std::string what = e.what();
      if (auto nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
      spdlog::warn("{}: CUDA graph capture failed ({}); running eagerly", device.str(), what);
      s.inputs.clear();
      s.outputs.clear();
      enabled = false;
      return false;
    }
    s.graph = std::move(graph);
    ++captured;
    return true;
  }
#endif
};

CudaGraphs::CudaGraphs(torch::Device device, bool enabled, int capture_after, int max_graphs)
    : impl_(std::make_unique<Impl>(device, enabled, capture_after, max_graphs)) {}

CudaGraphs::~CudaGraphs() = default;

bool CudaGraphs::supported() {
#ifdef SEEDRL_HAVE_CUDA_GRAPHS
  return true;
#else
  return false;
#endif
}

int CudaGraphs::captured() const { return impl_->captured; }

bool CudaGraphs::replayed_last() const { return impl_->replayed; }

std::vector<torch::Tensor> CudaGraphs::run(int batch_size, const std::vector<torch::Tensor>& inputs, const Fn& fn) {
  impl_->replayed = false;
#ifdef SEEDRL_HAVE_CUDA_GRAPHS
  Impl& im = *impl_;
  if (im.enabled) {
    if (Impl::Size* s = im.find(batch_size)) {
      if (!s->graph && ++s->seen > im.capture_after && im.captured < im.max_graphs) im.capture(*s, inputs, fn);
      if (s->graph) {
        for (std::size_t i = 0; i < inputs.size(); ++i)
          if (inputs[i].defined()) s->inputs[i].copy_(inputs[i], /*non_blocking=*/true);
        s->graph->replay();
        im.replayed = true;
        return s->outputs;
      }
    }
  }
#else
  (void)batch_size;
#endif
  return fn(inputs);
}

}  // namespace seedrl
