#include "seedrl/cli/unknown_flag.h"

#include <vector>

#include "seedrl/util/closest_name.h"

namespace seedrl {

std::string unknown_flag_message(const CLI::App& app, int argc, const char* const* argv) {
  if (argc < 2) return "";
  const CLI::App* command = nullptr;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == argv[1]) command = sub;
  if (command == nullptr) return "";
  std::vector<std::string> names{"help"};
  for (const CLI::Option* opt : command->get_options())
    for (const std::string& name : opt->get_lnames()) names.push_back(name);
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;  // what follows is positional
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string name = arg.substr(2, arg.find('=') - 2);
    bool known = false;
    for (const std::string& n : names) known |= n == name;
    if (known) continue;
    std::string message = "unknown flag --" + name + " for " + command->get_name();
    if (const std::string near = closest_name(name, names); !near.empty()) message += " (did you mean --" + near + "?)";
    return message + "; `seedrl " + command->get_name() + " --help` lists its flags";
  }
  return "";
}

}  // namespace seedrl
