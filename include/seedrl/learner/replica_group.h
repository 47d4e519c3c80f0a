// The collective-communication group of data-parallel learner replicas that
// are threads of this process: one c10d process group per rank, all meeting
// through one in-memory c10d::HashStore. CPU replicas talk through Gloo (over
// loopback TCP), CUDA replicas through NCCL where this LibTorch was built with
// it; replicas that share one GPU through Gloo on host copies (NCCL takes one
// rank per GPU). Collectives are c10d's; this class only hides c10d's headers and the
// 1.13 / 2.x differences (ProcessGroup vs Backend) from the rest of the code.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <torch/types.h>

namespace seedrl {

// Where the processes of a multi-process group meet: c10d's TCPStore at
// master_addr:master_port (served by the process holding global rank 0), as
// torchrun's MASTER_ADDR, MASTER_PORT and WORLD_SIZE describe it.
struct Rendezvous {
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  int world_size = 1;          // ranks over every process
  int first_rank = 0;          // this process's first global rank; its replicas are the next ones
  std::string gloo_host;       // the address Gloo binds and peers reach (empty: this host's name)
  std::string gloo_interface;  // else the address of this network interface (GLOO_SOCKET_IFNAME)
  // Rank 0 only: Gloo binds where the other ranks reached the store (they
  // tell it through the store), for when master_addr names this host but
  // resolves to loopback here (Debian maps a host's own name to 127.0.1.1).
  bool gloo_host_from_peers = false;
  // Ranks > 0: master_addr as this host resolved it, told to rank 0.
  std::string store_seen_at;
  // Prefixes every key the group writes to the store: a process without the
  // same token never meets the group's ranks (it waits alone, then times out).
  std::string token;
  // What ends this process when a rank cannot join the group while it forms
  // (the whole one-line reason given). Empty: log it and exit with status 1,
  // since the other local ranks may be blocked inside Gloo's connect.
  std::function<void(const std::string&)> on_formation_failure;
};

// The backend of replicas on `devices` (one process's): "nccl" for distinct
// GPUs, "gloo" for CPUs or a GPU listed twice.
std::string replica_backend(const std::vector<torch::Device>& devices);
// The same over every rank of a group of processes, each rank's place given
// as "<host> <device>" (e.g. "node7 cuda:0"): Gloo where any rank is on CPU
// or two share a place, else NCCL. Every process computes it alike.
std::string group_backend(const std::vector<std::string>& places);

class ReplicaGroup {
 public:
  // Builds every rank's process group, each on its own thread (c10d's
  // rendezvous blocks until all ranks have joined). Throws std::runtime_error
  // when the devices' backend is not available in this build.
  ReplicaGroup(const std::vector<torch::Device>& devices, std::chrono::milliseconds timeout);
  // This process's replicas as global ranks first_rank.. of a group that spans
  // processes (and hosts): every process of it builds its ReplicaGroup at the
  // same time. Throws std::invalid_argument for ranks outside the world, and
  // std::runtime_error when the rendezvous fails or times out.
  ReplicaGroup(const std::vector<torch::Device>& devices, std::chrono::milliseconds timeout,
               const Rendezvous& rendezvous);
  ~ReplicaGroup();
  ReplicaGroup(const ReplicaGroup&) = delete;
  ReplicaGroup& operator=(const ReplicaGroup&) = delete;

  int size() const;             // this process's replicas (local ranks 0..size-1)
  int world_size() const;       // every process's
  std::string backend() const;  // "gloo" | "nccl"

  // Collectives over every rank of every process. Each local rank calls the
  // same ones in the same order, from its own thread; tensors live on the
  // rank's device and are contiguous. `rank` is the local rank.
  using Wait = std::function<void()>;
  // In-place sum across ranks; returns a function that blocks until done.
  Wait allreduce_sum(int rank, torch::Tensor tensor);
  // In-place: every rank receives global rank `root`'s values.
  void broadcast(int rank, torch::Tensor tensor, int root = 0);
  // Every rank's `tensor`, indexed by global rank.
  std::vector<torch::Tensor> allgather(int rank, torch::Tensor tensor);

  // A group over processes: which other processes' ranks are no longer
  // running, as far as this host can tell (those on this host whose process
  // has gone), e.g. "learner rank 1 (pid 5844 on node7)"; empty when it cannot
  // tell (every one still runs, or the others are on other hosts).
  std::string gone_ranks() const;

  // Whether this build can run replicas on `device`'s type.
  static bool supports(const torch::Device& device);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace seedrl
