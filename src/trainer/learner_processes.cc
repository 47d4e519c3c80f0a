#include "seedrl/trainer/learner_processes.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "seedrl/net/protocol.h"
#include "seedrl/net/route_address.h"
#include "seedrl/util/rng.h"

namespace seedrl {

void finalize_learner_processes(TrainConfig& config) {
  if (config.rank >= config.world_size)
    throw std::invalid_argument("--rank: " + std::to_string(config.rank) + " is not below --world-size " +
                                std::to_string(config.world_size));
  if (!config.learner_processes()) return;
  if (config.algo != "vtrace")
    throw std::invalid_argument("--world-size: learner processes run V-trace only (--algo " + config.algo +
                                " keeps its replay in one process)");
  if (config.model.normalize_obs)
    throw std::invalid_argument(
        "--normalize-obs: not supported with learner processes (each would fold only its own observations in)");
  if (config.master_addr.empty()) throw std::invalid_argument("--master-addr: empty");
  if (!net::is_loopback_host(config.master_addr) && config.token_file.empty())
    throw std::invalid_argument("--master-addr: " + config.master_addr +
                                " is beyond loopback; give every rank the same --token-file, so that no other "
                                "process can join the group");
  // Processes on one host would each reserve the same CPU for their learner.
  if (config.learner_cpus == "auto") config.learner_cpus = "share";
  config.run_logdir = config.logdir;
  if (config.rank > 0) {
    config.logdir = (std::filesystem::path(config.logdir) / ("rank-" + std::to_string(config.rank))).string();
    // Its own envs and sampling; its weights come from rank 0's.
    config.seed = derive_seed(config.seed, 0x4C52414E4Bull + static_cast<std::uint64_t>(config.rank));
    config.dashboard.clear();  // rank 0 serves the run's page
    // Rank 0 judges --target-return on its episodes (a sample of the run's)
    // and stops the group; the others record when theirs reach it.
    config.stop_at_target = false;
    config.start_notes.push_back("learner process " + std::to_string(config.rank) + " of " +
                                 std::to_string(config.world_size) + ": the run's files are rank 0's, in " +
                                 config.run_logdir);
  }
}

Rendezvous learner_rendezvous(const TrainConfig& config, int local_replicas) {
  Rendezvous r;
  r.master_addr = config.master_addr;
  r.master_port = config.master_port;
  r.world_size = config.world_size * local_replicas;
  r.first_rank = config.rank * local_replicas;
  // Gloo on loopback when the store is: a one-host group needs no host name
  // that resolves. Else on the interface the user names as for PyTorch
  // (GLOO_SOCKET_IFNAME), or on this host's address towards the store's: a
  // host name may resolve to loopback (Debian's 127.0.1.1), which no peer on
  // another host can reach.
  if (net::is_loopback_host(config.master_addr)) {
    r.gloo_host = "127.0.0.1";
  } else {
    const auto port = static_cast<std::uint16_t>(config.master_port);
    // Every rank > 0 tells rank 0 where it found the store, whichever address
    // its own Gloo takes: rank 0 may need it though this rank names an interface.
    if (config.rank > 0) r.store_seen_at = net::resolve_address(config.master_addr, port, "--master-addr");
    if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface != nullptr && *iface != '\0') {
      r.gloo_interface = iface;
    } else {
      r.gloo_host = net::local_address_towards(config.master_addr, port, "--master-addr");
      // Rank 0 whose own name for its host leads to loopback listens where the others found it.
      if (config.rank == 0 && net::is_loopback_host(r.gloo_host)) r.gloo_host_from_peers = true;
    }
  }
  if (!config.token_file.empty()) r.token = net::read_token_file(config.token_file, "--token-file");
  return r;
}

}  // namespace seedrl
