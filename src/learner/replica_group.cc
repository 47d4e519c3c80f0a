#include "seedrl/learner/replica_group.h"

#include <exception>
#include <stdexcept>
#include <thread>

// c10d declares its backends only under USE_C10D_GLOO / USE_C10D_NCCL. A
// LibTorch CMake config may export them (Debian's exports USE_C10D_GLOO);
// otherwise Gloo is enabled where its headers are installed, and NCCL where
// CMake found a CUDA LibTorch with nccl.h (SEEDRL_WITH_NCCL). The CPU build
// compiles the NCCL path out entirely.
#if __has_include(<gloo/algorithm.h>)
#ifndef USE_C10D_GLOO
#define USE_C10D_GLOO
#endif
#define SEEDRL_HAVE_GLOO 1
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#if (defined(SEEDRL_WITH_NCCL) || defined(USE_C10D_NCCL)) && __has_include(<nccl.h>)
#define SEEDRL_HAVE_NCCL 1
#ifndef USE_C10D_NCCL
#define USE_C10D_NCCL
#endif
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#include <torch/csrc/distributed/c10d/HashStore.hpp>

namespace seedrl {

namespace {

// One rank's end of the group. Both c10d backends are driven through the same
// calls, whose signatures are identical in LibTorch 1.13 (ProcessGroup) and
// 2.x (Backend).
class RankComm {
 public:
  virtual ~RankComm() = default;
  virtual ReplicaGroup::Wait allreduce_sum(torch::Tensor t) = 0;
  virtual void broadcast(torch::Tensor t, int root) = 0;
  virtual std::vector<torch::Tensor> allgather(torch::Tensor t, int size) = 0;
};

template <class PG>
class C10dComm final : public RankComm {
 public:
  explicit C10dComm(c10::intrusive_ptr<PG> pg) : pg_(std::move(pg)) {}
  ReplicaGroup::Wait allreduce_sum(torch::Tensor t) override {
    std::vector<at::Tensor> tensors{t};
    auto work = pg_->allreduce(tensors, c10d::AllreduceOptions());  // default op: SUM
    return [work, t]() { work->wait(); };
  }
  void broadcast(torch::Tensor t, int root) override {
    std::vector<at::Tensor> tensors{t};
    c10d::BroadcastOptions opts;
    opts.rootRank = root;
    pg_->broadcast(tensors, opts)->wait();
  }
  std::vector<torch::Tensor> allgather(torch::Tensor t, int size) override {
    std::vector<std::vector<at::Tensor>> out(1);
    for (int r = 0; r < size; ++r) out[0].push_back(torch::empty_like(t));
    std::vector<at::Tensor> in{t};
    pg_->allgather(out, in, c10d::AllgatherOptions())->wait();
    return out[0];
  }

 private:
  c10::intrusive_ptr<PG> pg_;
};

std::unique_ptr<RankComm> make_comm(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                                    const torch::Device& device, std::chrono::milliseconds timeout) {
  if (device.is_cpu()) {
#ifdef SEEDRL_HAVE_GLOO
    auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
    // Ranks are threads of this process: loopback is all they need.
    opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    opts->threads = 2;
    return std::make_unique<C10dComm<c10d::ProcessGroupGloo>>(
        c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, opts));
#endif
  }
  if (device.is_cuda()) {
#ifdef SEEDRL_HAVE_NCCL
    auto opts = c10d::ProcessGroupNCCL::Options::create();
    opts->timeout = timeout;
    return std::make_unique<C10dComm<c10d::ProcessGroupNCCL>>(
        c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, opts));
#endif
  }
  throw std::runtime_error("--learner-devices: this build has no c10d backend for " + device.str() +
                           " replicas (Gloo serves cpu, NCCL serves cuda)");
}

}  // namespace

struct ReplicaGroup::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  std::vector<std::unique_ptr<RankComm>> comms;
  std::string backend;
};

bool ReplicaGroup::supports(const torch::Device& device) {
#ifdef SEEDRL_HAVE_GLOO
  if (device.is_cpu()) return true;
#endif
#ifdef SEEDRL_HAVE_NCCL
  if (device.is_cuda()) return true;
#endif
  return false;
}

ReplicaGroup::ReplicaGroup(const std::vector<torch::Device>& devices, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<Impl>()) {
  const int n = static_cast<int>(devices.size());
  if (n < 1) throw std::invalid_argument("ReplicaGroup: no devices");
  for (const auto& d : devices)
    if (!supports(d))
      throw std::runtime_error("--learner-devices: this build has no c10d backend for " + d.str() +
                               " replicas (Gloo serves cpu, NCCL serves cuda)");
  impl_->backend = devices.front().is_cuda() ? "nccl" : "gloo";
  impl_->store = c10::make_intrusive<c10d::HashStore>();
  impl_->comms.resize(n);
  std::vector<std::exception_ptr> errors(n);
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      try {
        impl_->comms[r] = make_comm(impl_->store, r, n, devices[r], timeout);
      } catch (...) {
        errors[r] = std::current_exception();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

ReplicaGroup::~ReplicaGroup() = default;

int ReplicaGroup::size() const { return static_cast<int>(impl_->comms.size()); }
std::string ReplicaGroup::backend() const { return impl_->backend; }

ReplicaGroup::Wait ReplicaGroup::allreduce_sum(int rank, torch::Tensor tensor) {
  return impl_->comms.at(rank)->allreduce_sum(std::move(tensor));
}

void ReplicaGroup::broadcast(int rank, torch::Tensor tensor, int root) {
  impl_->comms.at(rank)->broadcast(std::move(tensor), root);
}

std::vector<torch::Tensor> ReplicaGroup::allgather(int rank, torch::Tensor tensor) {
  return impl_->comms.at(rank)->allgather(std::move(tensor), size());
}

}  // namespace seedrl
