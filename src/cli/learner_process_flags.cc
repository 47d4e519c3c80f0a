#include "seedrl/cli/learner_process_flags.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "seedrl/cli/validators.h"

namespace seedrl {

namespace {

// Each flag and the variable torchrun, and launchers that mimic it, describe
// the group in.
struct LauncherVariable {
  const char* flag;
  const char* variable;
};
constexpr LauncherVariable kLauncherVariables[] = {
    {"--rank", "RANK"},
    {"--world-size", "WORLD_SIZE"},
    {"--master-addr", "MASTER_ADDR"},
    {"--master-port", "MASTER_PORT"},
};

}  // namespace

void add_learner_process_flags(CLI::App& command, TrainConfig& c) {
  // Not CLI11's envname: from CLI11 2.4 on, a variable whose value fails the
  // flag's check is dropped in silence and the default used instead (a
  // MASTER_PORT=0 run would train alone). read_launcher_variables checks them.
  command
      .add_option("--rank", c.rank,
                  "This process's rank among the learner processes (0 writes the run's files; "
                  "$RANK when not given)")
      ->check(in_range(0, 1 << 16));
  command
      .add_option(
          "--world-size", c.world_size,
          "Learner processes of the run, data-parallel over c10d (1: this process alone; $WORLD_SIZE when not given)")
      ->check(in_range(1, 1 << 16));
  command.add_option("--master-addr", c.master_addr,
                     "Host of rank 0, which serves the group's rendezvous store ($MASTER_ADDR when not given)");
  command
      .add_option("--master-port", c.master_port,
                  "Port of the rendezvous store on --master-addr ($MASTER_PORT when not given)")
      ->check(in_range(1, 65535));
  command
      .add_option("--collective-timeout-s", c.collective_timeout_s,
                  "Learner processes: a rank silent this long (dead or hung) ends the run on every rank")
      ->check(in_range(1.0, 86400.0));
}

void read_launcher_variables(CLI::App& command) {
  for (const auto& [flag, variable] : kLauncherVariables) {
    CLI::Option* option = command.get_option(flag);
    const char* value = std::getenv(variable);
    if (option->count() > 0 || value == nullptr || *value == '\0') continue;
    option->add_result(value);
    try {
      option->run_callback();  // the flag's own checks and conversion
    } catch (const CLI::Error& e) {
      std::string why = e.what();
      const std::string named = std::string(flag) + ": ";
      if (why.rfind(named, 0) == 0) why.erase(0, named.size());
      throw std::invalid_argument(named + variable + "=" + value + " is refused: " + why);
    }
  }
}

}  // namespace seedrl
