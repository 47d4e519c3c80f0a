#include "seedrl/cli/learner_process_flags.h"

#include "seedrl/cli/validators.h"

namespace seedrl {

void add_learner_process_flags(CLI::App& command, TrainConfig& c) {
  // torchrun, and launchers that mimic it, describe the group in these variables.
  command.add_option("--rank", c.rank, "This process's rank among the learner processes (0 writes the run's files)")
      ->envname("RANK")
      ->check(in_range(0, 1 << 16));
  command
      .add_option("--world-size", c.world_size,
                  "Learner processes of the run, data-parallel over c10d (1: this process alone)")
      ->envname("WORLD_SIZE")
      ->check(in_range(1, 1 << 16));
  command.add_option("--master-addr", c.master_addr, "Host of rank 0, which serves the group's rendezvous store")
      ->envname("MASTER_ADDR");
  command.add_option("--master-port", c.master_port, "Port of the rendezvous store on --master-addr")
      ->envname("MASTER_PORT")
      ->check(in_range(1, 65535));
  command
      .add_option("--collective-timeout-s", c.collective_timeout_s,
                  "Learner processes: a rank silent this long (dead or hung) ends the run on every rank")
      ->check(in_range(1.0, 86400.0));
}

}  // namespace seedrl
