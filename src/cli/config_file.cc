#include "seedrl/cli/config_file.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace seedrl {
namespace {

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool is_key(std::string key) {
  if (key.size() >= 2 && (key.front() == '"' || key.front() == '\'') && key.back() == key.front())
    key = key.substr(1, key.size() - 2);  // CLI11 takes "actors" = 4 too
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

// CLI11's TOML reader takes what it cannot parse for something else: an array
// missing its ']' swallows the lines after it and loses its last character
// (`hidden = [32, 16` read as [32, 1]), `max-frames = = 3` gives the key
// "= 3", a '#' inside quotes cuts the value, a line under 3 characters is
// skipped. So every line is checked first, as CLI11 will read it, and the
// first malformed one is refused by its number ("" when all are well formed).
std::string syntax_error(std::istream& in) {
  std::string raw;
  int n = 0;
  int array_line = 0;  // the line of a multi-line array's '[' while it is open
  auto at = [&](int line, const std::string& why) { return fmt::format("line {}: {}", line, why); };
  while (std::getline(in, raw)) {
    ++n;
    const std::string line = trimmed(raw);
    if (array_line > 0) {
      // CLI11 appends whole lines, comments and all, until one ends with ']'.
      char quote = 0;
      for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
          if (c == '\\' && quote == '"') ++i;
          else if (c == quote) quote = 0;
          else if (c == '#') return at(n, "'#' inside quotes would end the value there");
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '#') {
          return at(n, "no comments inside a multi-line array");
        } else if (c == '=' || c == '[') {
          return at(array_line, fmt::format("'[' is not closed before line {}", n));
        } else if (c == ']') {
          if (i + 1 != line.size()) return at(n, "a multi-line array's ']' must end its line");
          array_line = 0;
        }
      }
      if (quote) return at(n, "unterminated string");
      continue;
    }
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {  // a [section] or [[section]] header
      const std::string inner = line.size() >= 4 && line.rfind("[[", 0) == 0 ? line.substr(2, line.size() - 4)
                                                                            : line.substr(1, line.size() - 2);
      if (line.back() != ']' || !is_key(inner)) return at(n, fmt::format("malformed section header '{}'", line));
      continue;
    }
    const auto eq = line.find('=');
    const std::string key = trimmed(line.substr(0, eq));
    if (!is_key(key) || line.size() < 3) return at(n, fmt::format("expected KEY = VALUE, got '{}'", line));
    if (eq == std::string::npos) continue;  // `resume`: CLI11 reads a bare key as `resume = true`
    const std::string value = trimmed(line.substr(eq + 1));
    if (value.empty() || value.front() == '#') return at(n, fmt::format("'{}' has no value", key));
    if (value.front() == '=') return at(n, fmt::format("'=' twice in '{}'", line));
    char quote = 0;
    bool closed = false;  // the array's ']' has been seen
    std::size_t end = value.size();
    for (std::size_t i = 0; i < value.size() && end == value.size(); ++i) {
      const char c = value[i];
      if (quote) {
        if (c == '\\' && quote == '"') ++i;
        else if (c == quote) quote = 0;
        else if (c == '#') return at(n, "'#' inside quotes would end the value there");
      } else if (c == '#') {
        end = i;  // a comment
      } else if (closed && c != ' ' && c != '\t') {
        return at(n, fmt::format("text after ']' in '{}'", line));
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        if (i != 0) return at(n, fmt::format("unexpected '[' in '{}'", line));
      } else if (c == ']') {
        if (value.front() != '[') return at(n, fmt::format("']' without '[' in '{}'", line));
        closed = true;
      }
    }
    if (quote) return at(n, fmt::format("unterminated string in '{}'", line));
    if (value.front() == '[' && !closed) {
      // CLI11 continues an array on the next lines only from its first element.
      if (trimmed(value.substr(0, end)) == "[") return at(n, "put an array's first element on the line of its '['");
      array_line = n;
    }
  }
  if (array_line > 0) return at(array_line, "'[' is never closed");
  return {};
}

}  // namespace

void apply_config_file(CLI::App& command, const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::invalid_argument("--config: cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();  // an empty file leaves `text` failed, hence clear() below
  if (const std::string error = syntax_error(text); !error.empty())
    throw std::invalid_argument(fmt::format("--config: {} {}", path, error));
  text.clear();
  text.seekg(0);
  std::vector<CLI::ConfigItem> items;
  try {
    items = CLI::ConfigTOML().from_config(text);
  } catch (const CLI::Error& e) {
    throw std::invalid_argument("--config: cannot read " + path + ": " + e.what());
  }
  for (const auto& item : items) {
    if (item.name == "++" || item.name == "--") continue;  // section markers
    std::string key = item.fullname();
    std::replace(key.begin(), key.end(), '_', '-');
    if (key == "config") throw std::invalid_argument("--config: " + path + " may not name another config file");
    CLI::Option* opt = command.get_option_no_throw("--" + key);
    if (!opt) throw std::invalid_argument("--config: unknown key '" + item.fullname() + "' in " + path);
    if (opt->count() > 0) continue;  // the command line wins
    try {
      opt->add_result(item.inputs);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      throw std::invalid_argument(std::string(e.what()) + " (in " + path + ")");
    }
  }
}

bool flag_given(const CLI::App& command, const std::string& flag) {
  const CLI::Option* o = command.get_option_no_throw(flag);
  return o != nullptr && o->count() > 0;
}

}  // namespace seedrl
