#include "seedrl/cli/help_formatter.h"

#include <utility>

namespace seedrl {

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool positional) const {
  std::string name = CLI::Formatter::make_option_name(opt, positional);
  for (auto open = name.find('{'); open != std::string::npos; open = name.find('{', open)) {
    const auto close = name.find('}', open);
    if (close == std::string::npos) break;
    name.erase(open, close - open + 1);
  }
  return name;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  std::string opts = CLI::Formatter::make_option_opts(opt);
  if (!opt->get_type_name().empty()) return opts;  // a value's "=default" stays
  // A switch: CLI11 writes "=false"; say it in words.
  for (const auto& [raw, words] : {std::pair{"=true", " (default: on)"}, std::pair{"=false", " (default: off)"}})
    if (const auto at = opts.find(raw); at != std::string::npos) opts.replace(at, std::string(raw).size(), words);
  return opts;
}

}  // namespace seedrl
