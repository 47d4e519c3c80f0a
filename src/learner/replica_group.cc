#include "seedrl/learner/replica_group.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
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
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <spdlog/spdlog.h>

#include "formation_watch.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/host_name.h"

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

// Replicas that share a GPU talk through Gloo, which this class feeds host
// copies of their CUDA tensors (NCCL takes one rank per GPU).
class HostStagedComm final : public RankComm {
 public:
  explicit HostStagedComm(std::unique_ptr<RankComm> host) : host_(std::move(host)) {}
  ReplicaGroup::Wait allreduce_sum(torch::Tensor t) override {
    torch::Tensor staged = t.to(torch::kCPU);
    auto wait = host_->allreduce_sum(staged);
    return [wait, t, staged]() mutable {
      wait();
      t.copy_(staged);
    };
  }
  void broadcast(torch::Tensor t, int root) override {
    torch::Tensor staged = t.to(torch::kCPU);
    host_->broadcast(staged, root);
    t.copy_(staged);
  }
  std::vector<torch::Tensor> allgather(torch::Tensor t, int size) override {
    auto out = host_->allgather(t.to(torch::kCPU), size);
    for (auto& o : out) o = o.to(t.device());
    return out;
  }

 private:
  std::unique_ptr<RankComm> host_;
};

// Gloo binds `gloo_interface`'s address when one is named, else `gloo_host`
// ("": what this host's name resolves to).
std::unique_ptr<RankComm> make_comm(const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                                    const torch::Device& device, const std::string& backend,
                                    std::chrono::milliseconds timeout, const std::string& gloo_host,
                                    const std::string& gloo_interface) {
  if (backend == "gloo") {
#ifdef SEEDRL_HAVE_GLOO
    auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
    opts->devices.push_back(!gloo_interface.empty() ? c10d::ProcessGroupGloo::createDeviceForInterface(gloo_interface)
                            : gloo_host.empty()     ? c10d::ProcessGroupGloo::createDefaultDevice()
                                                    : c10d::ProcessGroupGloo::createDeviceForHostname(gloo_host));
    opts->threads = 2;
    std::unique_ptr<RankComm> gloo = std::make_unique<C10dComm<c10d::ProcessGroupGloo>>(
        c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, opts));
    if (device.is_cuda()) return std::make_unique<HostStagedComm>(std::move(gloo));
    return gloo;
#endif
  }
  if (backend == "nccl") {
#ifdef SEEDRL_HAVE_NCCL
    // Without blocking wait, work->wait() only queues the collective on the
    // stream, and the next host copy spins for ever on a peer that died (1.13)
    // or the watchdog aborts the process (2.x): either way the timeout never
    // reaches our "lost another rank" path. Read when the group is made; a
    // user's own setting wins.
    ::setenv("TORCH_NCCL_BLOCKING_WAIT", "1", 0);
    ::setenv("NCCL_BLOCKING_WAIT", "1", 0);  // its name before LibTorch 2.2
    auto opts = c10d::ProcessGroupNCCL::Options::create();
    opts->timeout = timeout;
    return std::make_unique<C10dComm<c10d::ProcessGroupNCCL>>(
        c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size, opts));
#endif
  }
  throw std::runtime_error("--learner-devices: this build has no c10d backend for " + device.str() +
                           " replicas (Gloo serves cpu and replicas sharing a GPU, NCCL serves cuda)");
}

}  // namespace

struct ReplicaGroup::Impl {
  std::vector<c10::intrusive_ptr<c10d::Store>> stores;  // one, or one TCPStore client per local rank
  std::vector<std::unique_ptr<RankComm>> comms;
  std::string backend;
  int world_size = 0;
  // A group over processes: every global rank's host and process id.
  std::vector<std::string> hosts;
  std::vector<long> pids;

  // Builds every local rank's process group, each on its own thread (c10d's
  // rendezvous blocks until all ranks have joined).
  // A rank that fails tells `watch`, when there is one (a group over
  // processes), and ends with `cannot_meet`'s line.
  void connect(const std::vector<torch::Device>& devices, std::chrono::milliseconds timeout, int first_rank,
               const std::string& gloo_host, const std::string& gloo_interface = "", FormationWatch* watch = nullptr,
               const std::function<std::string(int, const std::string&)>& cannot_meet = {}) {
    const int n = static_cast<int>(devices.size());
    comms.resize(n);
    const std::string& backend = this->backend;
    std::vector<std::exception_ptr> errors(n);
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r) {
      threads.emplace_back([&, r] {
        try {
          comms[r] = make_comm(stores[stores.size() == 1 ? 0 : r], first_rank + r, world_size, devices[r], backend,
                               timeout, gloo_host, gloo_interface);
        } catch (const std::exception& e) {
          errors[r] = std::current_exception();
          if (watch) watch->report(first_rank + r, error_text(e), cannot_meet(first_rank + r, error_text(e)));
        } catch (...) {
          errors[r] = std::current_exception();
          if (watch) watch->report(first_rank + r, "an unknown error", cannot_meet(first_rank + r, "an unknown error"));
        }
      });
    }
    for (auto& t : threads) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }
};

namespace {

void check_backends(const std::vector<torch::Device>& devices) {
  if (devices.empty()) throw std::invalid_argument("ReplicaGroup: no devices");
  const std::string backend = replica_backend(devices);
  for (const auto& d : devices)
    if (!ReplicaGroup::supports(d) || (backend == "gloo" && !ReplicaGroup::supports(torch::kCPU)))
      throw std::runtime_error("--learner-devices: this build has no c10d backend for " + d.str() +
                               " replicas (Gloo serves cpu and replicas sharing a GPU, NCCL serves cuda)");
}

// Whether process `pid` of this host still runs (an exited one not yet reaped is a zombie: gone).
bool running(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;  // no /proc: kill() said it is there
  const auto paren = line.rfind(')');
  return paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] != 'Z';
}

}  // namespace

std::string replica_backend(const std::vector<torch::Device>& devices) {
  std::vector<std::string> places;
  for (const auto& d : devices) places.push_back(d.str());
  return group_backend(places);
}

std::string group_backend(const std::vector<std::string>& places) {
  for (std::size_t i = 0; i < places.size(); ++i) {
    const auto space = places[i].rfind(' ');
    if (places[i].compare(space == std::string::npos ? 0 : space + 1, std::string::npos, "cpu") == 0) return "gloo";
    for (std::size_t j = i + 1; j < places.size(); ++j)
      if (places[i] == places[j]) return "gloo";
  }
  return "nccl";
}

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
  check_backends(devices);
  impl_->backend = replica_backend(devices);
  if (impl_->backend == "gloo" && devices.front().is_cuda())
    spdlog::warn(
        "--learner-devices: {} replicas share {}: NCCL takes one rank per GPU, so their gradients meet "
        "through Gloo in host memory. This runs the multi-replica code path; it adds no throughput",
        devices.size(), devices.front().str());
  impl_->world_size = static_cast<int>(devices.size());
  impl_->stores.push_back(c10::make_intrusive<c10d::HashStore>());
  // Ranks are threads of this process: loopback is all they need.
  impl_->connect(devices, timeout, 0, "127.0.0.1");
}

ReplicaGroup::ReplicaGroup(const std::vector<torch::Device>& devices, std::chrono::milliseconds timeout,
                           const Rendezvous& rdv)
    : impl_(std::make_unique<Impl>()) {
  check_backends(devices);
  const int n = static_cast<int>(devices.size());
  if (rdv.world_size < 1 || rdv.first_rank < 0 || rdv.first_rank + n > rdv.world_size)
    throw std::invalid_argument("rank " + std::to_string(rdv.first_rank) + " with " + std::to_string(n) +
                                " replica(s) does not fit a world of " + std::to_string(rdv.world_size));
  if (rdv.master_port < 1 || rdv.master_port > 65535)
    throw std::invalid_argument("master port " + std::to_string(rdv.master_port) + " is not a TCP port");
  impl_->world_size = rdv.world_size;
  // A write to a socket whose peer has died raises SIGPIPE unless the writer
  // opts out, and not every write in Gloo and c10d's store does: a rank that
  // dies would end this one in silence (status 141, seen on a GPU machine)
  // instead of with the line that names it. Python, PyTorch's usual host,
  // ignores SIGPIPE from its start; a native process must say so itself.
  ::signal(SIGPIPE, SIG_IGN);
  // One store client per local rank (a TCPStore's connection is not shared
  // between threads); the process holding global rank 0 also serves it.
  const std::string store_name = rdv.master_addr + ":" + std::to_string(rdv.master_port);
  auto store_client = [&](bool serve) -> c10::intrusive_ptr<c10d::Store> {
    c10d::TCPStoreOptions opts;
    opts.port = static_cast<std::uint16_t>(rdv.master_port);
    opts.isServer = serve;
    opts.numWorkers = rdv.world_size;
    opts.waitWorkers = false;
    opts.timeout = timeout;
    return c10::make_intrusive<c10d::PrefixStore>("seedrl/" + rdv.token,
                                                  c10::make_intrusive<c10d::TCPStore>(rdv.master_addr, opts));
  };
  auto cannot_meet = [&](int rank, const std::string& why) {
    return "learner processes: rank " + std::to_string(rank) + " could not meet the other learner processes at " +
           store_name + " within " + std::to_string(timeout.count() / 1000) + " s (all " +
           std::to_string(rdv.world_size) + " started, with the same --token-file?): " + why;
  };
  std::unique_ptr<FormationWatch> watch;
  try {
    for (int r = 0; r < n; ++r) impl_->stores.push_back(store_client(rdv.first_rank == 0 && r == 0));
    FormationWatch::End end = rdv.on_formation_failure;
    if (!end)
      end = [](const std::string& line) {
        spdlog::error("{}", line);
        spdlog::default_logger()->flush();
        std::fflush(nullptr);
        std::_Exit(1);
      };
    watch = std::make_unique<FormationWatch>(store_client(false), rdv.first_rank, n, rdv.world_size,
                                             std::min(timeout, std::chrono::milliseconds(10000)), store_name,
                                             std::move(end));
  } catch (const std::exception& e) {
    throw std::runtime_error("rendezvous at " + rdv.master_addr + ":" + std::to_string(rdv.master_port) +
                             " failed: " + e.what());
  }
  try {
    const std::string seen_key = "store-address";
    if (rdv.first_rank > 0 && !rdv.store_seen_at.empty())
      impl_->stores[0]->set(seen_key, std::vector<std::uint8_t>(rdv.store_seen_at.begin(), rdv.store_seen_at.end()));
    std::string gloo_host = rdv.gloo_host;
    if (rdv.gloo_host_from_peers) {
      const std::vector<std::uint8_t> v = impl_->stores[0]->get(seen_key);
      gloo_host.assign(v.begin(), v.end());
    }
    // Every rank says where it learns, so that all pick one backend: NCCL
    // only where no GPU of a host holds two ranks (processes on a one-GPU
    // machine each default to cuda:0).
    const std::string host = host_name();
    for (int r = 0; r < n; ++r) {
      const std::string place = host + " " + devices[r].str();
      impl_->stores[0]->set("device/" + std::to_string(rdv.first_rank + r),
                            std::vector<std::uint8_t>(place.begin(), place.end()));
    }
    std::vector<std::string> places;
    for (int g = 0; g < rdv.world_size; ++g) {
      const std::vector<std::uint8_t> v = impl_->stores[0]->get("device/" + std::to_string(g));
      places.emplace_back(v.begin(), v.end());
    }
    impl_->backend = group_backend(places);
    if (impl_->backend == "gloo" && devices.front().is_cuda() && rdv.first_rank == 0)
      spdlog::warn(
          "learner processes: two ranks learn on one GPU of one host: NCCL takes one rank per GPU, so the "
          "group's gradients meet through Gloo in host memory (give each process its own --learner-devices "
          "for NCCL)");
    if (rdv.world_size > n && impl_->backend == "gloo")
      spdlog::info("learner processes: rank {}'s Gloo listens on {}", rdv.first_rank,
                   rdv.gloo_interface.empty() ? gloo_host : "interface " + rdv.gloo_interface);
    impl_->connect(devices, timeout, rdv.first_rank, gloo_host, rdv.gloo_interface, watch.get(), cannot_meet);
    watch.reset();  // formed: nothing left to watch
    // Every rank says where it runs, so that a rank that loses another can name it.
    const std::string me = host_name() + " " + std::to_string(static_cast<long>(getpid()));
    for (int r = 0; r < n; ++r)
      impl_->stores[0]->set("member/" + std::to_string(rdv.first_rank + r),
                            std::vector<std::uint8_t>(me.begin(), me.end()));
    for (int g = 0; g < rdv.world_size; ++g) {
      const std::vector<std::uint8_t> v = impl_->stores[0]->get("member/" + std::to_string(g));
      const std::string s(v.begin(), v.end());
      const auto space = s.rfind(' ');
      impl_->hosts.push_back(s.substr(0, space));
      impl_->pids.push_back(space == std::string::npos ? 0 : std::stol(s.substr(space + 1)));
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(cannot_meet(rdv.first_rank, error_text(e)));
  }
}

ReplicaGroup::~ReplicaGroup() = default;

int ReplicaGroup::size() const { return static_cast<int>(impl_->comms.size()); }
int ReplicaGroup::world_size() const { return impl_->world_size; }
std::string ReplicaGroup::backend() const { return impl_->backend; }

std::string ReplicaGroup::gone_ranks() const {
  const std::string name = host_name();
  std::string out;
  for (std::size_t g = 0; g < impl_->pids.size(); ++g) {
    const long pid = impl_->pids[g];
    if (pid <= 0 || pid == static_cast<long>(getpid()) || impl_->hosts[g] != name) continue;
    if (running(static_cast<pid_t>(pid))) continue;
    out += (out.empty() ? "" : ", ") +
           ("learner rank " + std::to_string(g) + " (pid " + std::to_string(pid) + " on " + impl_->hosts[g] + ")");
  }
  return out;
}

ReplicaGroup::Wait ReplicaGroup::allreduce_sum(int rank, torch::Tensor tensor) {
  return impl_->comms.at(rank)->allreduce_sum(std::move(tensor));
}

void ReplicaGroup::broadcast(int rank, torch::Tensor tensor, int root) {
  impl_->comms.at(rank)->broadcast(std::move(tensor), root);
}

std::vector<torch::Tensor> ReplicaGroup::allgather(int rank, torch::Tensor tensor) {
  return impl_->comms.at(rank)->allgather(std::move(tensor), world_size());
}

}  // namespace seedrl
