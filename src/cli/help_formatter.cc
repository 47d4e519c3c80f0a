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
  // CLI11 up to 2.3 writes a default as "=256", later ones as " [256] ": one form for both.
  if (const std::string def = opt->get_default_str(); !def.empty()) {
    const std::string bracketed = "[" + def + "]";
    if (auto at = opts.rfind(bracketed); at != std::string::npos) {
      auto end = at + bracketed.size();
      if (end < opts.size() && opts[end] == ' ') ++end;
      if (at > 0 && opts[at - 1] == ' ') --at;
      opts.replace(at, end - at, "=" + def);
    }
  }
  if (!opt->get_type_name().empty()) return opts;  // a value's "=default" stays
  // A switch: CLI11 writes "=false"; say it in words.
  for (const auto& [raw, words] : {std::pair{"=true", " (default: on)"}, std::pair{"=false", " (default: off)"}})
    if (const auto at = opts.find(raw); at != std::string::npos) opts.replace(at, std::string(raw).size(), words);
  return opts;
}

}  // namespace seedrl
