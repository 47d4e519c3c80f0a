#include "seedrl/cli/renamed_flags.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "seedrl/util/renamed_settings.h"

namespace seedrl {
namespace {

bool flag_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

}  // namespace

std::string current_flag_name(const std::string& flag) {
  // Only "--name": the table's names are a config file's, without the dashes.
  if (flag.size() < 3 || flag.compare(0, 2, "--") != 0 || flag.find('_') != std::string::npos) return flag;
  return "--" + current_setting_name(std::string_view(flag).substr(2));
}

std::string with_flag_as_typed(std::string message, const std::string& current, const std::string& typed) {
  if (current.empty() || current == typed) return message;
  for (std::size_t at = message.find(current); at != std::string::npos; at = message.find(current, at)) {
    const std::size_t end = at + current.size();
    const bool whole =
        (at == 0 || !flag_name_char(message[at - 1])) && (end == message.size() || !flag_name_char(message[end]));
    if (!whole) {
      at = end;
      continue;
    }
    message.replace(at, current.size(), typed);
    at += typed.size();
  }
  return message;
}

std::string renamed_flag_warning(const std::string& typed, const std::string& current) {
  return typed + " is deprecated: it is now " + current + " (the old name still works for now)";
}

CurrentFlagNames::CurrentFlagNames(int argc, const char* const* argv) {
  bool positional = false;  // after "--"
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (i > 0 && !positional && arg == "--") positional = true;
    if (i > 0 && !positional && arg.rfind("--", 0) == 0) {
      const std::size_t eq = arg.find('=');
      const std::string name = arg.substr(0, eq);
      const std::string current = current_flag_name(name);
      if (current != name) {
        const bool seen = std::any_of(renamed_.begin(), renamed_.end(), [&](const auto& r) { return r.first == name; });
        if (!seen) renamed_.emplace_back(name, current);
        arg = current + (eq == std::string::npos ? "" : arg.substr(eq));
      }
    }
    args_.push_back(std::move(arg));
  }
  for (const std::string& a : args_) pointers_.push_back(a.c_str());
}

std::string CurrentFlagNames::as_typed(std::string message) const {
  for (const auto& [typed, current] : renamed_) message = with_flag_as_typed(std::move(message), current, typed);
  return message;
}

}  // namespace seedrl
