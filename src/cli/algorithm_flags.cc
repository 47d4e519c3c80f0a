#include "seedrl/cli/algorithm_flags.h"

#include <stdexcept>

namespace seedrl {

namespace {

constexpr unsigned kReplay = kR2D2 | kSac;        // the replay's flags
constexpr unsigned kSequences = kVTrace | kR2D2;  // unrolls, recurrent cores, gradient clipping

unsigned algorithm_bit(std::string_view algo) {
  if (algo == "vtrace") return kVTrace;
  if (algo == "r2d2") return kR2D2;
  if (algo == "sac") return kSac;
  throw std::invalid_argument("--algo: " + std::string(algo) + " is not vtrace, r2d2 or sac");
}

}  // namespace

const std::vector<AlgorithmFlag>& algorithm_flags() {
  static const std::vector<AlgorithmFlag> table = {
      {"--unroll-length", kSequences},
      {"--separate-value-net", kVTrace},
      {"--prev-action-input", kVTrace},
      {"--lstm", kSequences},
      {"--lstm-size", kSequences},
      {"--weight-init", kVTrace},
      {"--normalize-obs", kVTrace},
      {"--epochs", kVTrace, "R2D2 and SAC pace their updates with --replay-ratio"},
      {"--minibatches", kVTrace},
      {"--replica-checksum-every", kSequences},
      {"--rmsprop-alpha", kSequences},
      {"--rmsprop-eps", kSequences},
      {"--rmsprop-momentum", kSequences},
      {"--max-grad-norm", kSequences},  // SAC clips nothing, as the paper's
      {"--lambda", kVTrace},
      {"--rho-bar", kVTrace},
      {"--c-bar", kVTrace},
      {"--pg-rho-bar", kVTrace},
      {"--ppo-clip", kVTrace},
      {"--ppo-decoupled", kVTrace},
      {"--fixed-targets", kVTrace},
      {"--normalize-advantages", kVTrace},
      {"--baseline-cost", kVTrace},
      {"--entropy-cost", kVTrace},
      {"--entropy-cost-final", kVTrace},
      {"--eval-every-s", kVTrace,
       "R2D2 evaluates all along with --eval-envs; evaluate a SAC checkpoint with seedrl eval"},
      {"--eval-episodes", kVTrace},
      {"--eval-greedy", kVTrace},
      {"--burn-in", kR2D2},
      {"--sequence-overlap", kR2D2},
      {"--n-step", kReplay},
      {"--target-update-period", kR2D2},
      {"--priority-eta", kR2D2},
      {"--replay-capacity", kReplay},
      {"--priority-exponent", kR2D2},
      {"--importance-exponent", kR2D2},
      {"--replay-ratio", kReplay},
      {"--min-replay", kReplay},
      {"--checkpoint-replay", kReplay},
      {"--epsilon", kR2D2},
      {"--epsilon-alpha", kR2D2},
      {"--eval-envs", kR2D2},
      {"--eval-epsilon", kR2D2},
      {"--tau", kSac},
      {"--init-temperature", kSac},
      {"--target-entropy", kSac},
      {"--learn-temperature", kSac},
      {"--random-steps", kSac},
      {"--critic-threads", kSac},
  };
  return table;
}

std::string algorithm_names(unsigned algorithms) {
  std::vector<std::string> names;
  if (algorithms & kVTrace) names.emplace_back("V-trace");
  if (algorithms & kR2D2) names.emplace_back("R2D2");
  if (algorithms & kSac) names.emplace_back("SAC");
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

void check_algorithm_flags(const CLI::App& command, std::string_view algo, const std::set<std::string>& typed,
                           const std::string& config_file) {
  const unsigned bit = algorithm_bit(algo);
  for (const AlgorithmFlag& f : algorithm_flags()) {
    if (f.algorithms & bit) continue;
    const CLI::Option* opt = command.get_option_no_throw(f.flag);
    if (opt == nullptr || opt->count() == 0) continue;
    const bool from_command_line = typed.count(f.flag) > 0;
    if (!from_command_line && config_file.empty()) continue;  // a resumed run's saved settings
    const std::string where = from_command_line ? "" : config_file + ": ";
    throw std::invalid_argument(where + f.flag + ": " + algorithm_names(f.algorithms) + " only; --algo " +
                                std::string(algo) + " would ignore it" +
                                (f.instead ? std::string(" (") + f.instead + ")" : std::string()));
  }
}

}  // namespace seedrl
