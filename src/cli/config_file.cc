#include "seedrl/cli/config_file.h"

#include "seedrl/cli/renamed_flags.h"
#include "seedrl/cli/validators.h"
#include "seedrl/io/input_file.h"
#include "seedrl/util/closest_name.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <toml++/toml.h>
#include <CLI/CLI.hpp>

namespace seedrl {
namespace {

// Config files are a few hundred bytes: these only keep a wrong file (a
// device, a log, a megabyte on one line) from being read whole or quoted
// whole in an error.
constexpr std::size_t kMaxFileBytes = 4 << 20;
constexpr std::size_t kMaxLineBytes = 64 << 10;
constexpr std::size_t kMaxListValues = 1024;  // no flag takes more
constexpr std::size_t kMaxQuoted = 40;

// `s` as an error may show it: printable ASCII as is, other bytes as \xNN,
// cut after kMaxQuoted characters.
std::string printable(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= kMaxQuoted) return out + "...";
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  return out;
}

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF).
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= s.size()) return false;  // cut short
    for (int k = 1; k <= extra; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

// What a value is, for "expected an integer, got a string \"abc\"".
std::string describe(const toml::node& v) {
  if (const auto* s = v.as_string()) return fmt::format("a string \"{}\"", printable(s->get()));
  if (const auto* i = v.as_integer()) return fmt::format("an integer {}", i->get());
  if (const auto* f = v.as_floating_point()) return fmt::format("a float {}", f->get());
  if (const auto* b = v.as_boolean()) return fmt::format("a boolean {}", b->get());
  if (v.is_array()) return "a list";
  if (v.is_table()) return "a table";
  return "a date or time";
}

// The TOML value each kind of option takes, from CLI11's type name
// ("INT:INT in [1 - 65536]": the part before the validators).
enum class Kind { kInteger, kFloat, kBool, kText };

Kind kind_of(const CLI::Option& opt) {
  if (opt.get_items_expected_max() == 0) return Kind::kBool;  // a flag
  const std::string type = opt.get_type_name();
  const std::string base = type.substr(0, type.find(':'));
  if (base == "INT" || base == "UINT") return Kind::kInteger;
  if (base == "FLOAT") return Kind::kFloat;
  if (base == "BOOLEAN") return Kind::kBool;
  return Kind::kText;
}

const char* expected(Kind kind) {
  switch (kind) {
    case Kind::kInteger:
      return "an integer";
    case Kind::kFloat:
      return "a number";
    case Kind::kBool:
      return "true or false";
    case Kind::kText:
      return "a string";
  }
  return "";
}

// One scalar as the string CLI11 converts, or the reason it does not fit
// `kind` (`text` is then unchanged).
std::string to_input(Kind kind, const toml::node& v, std::string& text) {
  const std::string wrong = fmt::format("expected {}, got {}", expected(kind), describe(v));
  switch (kind) {
    case Kind::kInteger:
      if (const auto* i = v.as_integer()) return text = std::to_string(i->get()), "";
      return wrong;
    case Kind::kFloat:
      if (const auto* i = v.as_integer()) return text = std::to_string(i->get()), "";
      if (const auto* f = v.as_floating_point()) {
        if (!std::isfinite(f->get())) return fmt::format("must be a finite number, got {}", f->get());
        return text = fmt::format("{}", f->get()), "";  // the shortest text that reads back the same double
      }
      return wrong;
    case Kind::kBool:
      if (const auto* b = v.as_boolean()) return text = b->get() ? "true" : "false", "";
      return wrong;
    case Kind::kText:
      if (const auto* s = v.as_string()) {
        const std::string& value = s->get();
        if (!valid_utf8(value)) return fmt::format("expected UTF-8 text, got \"{}\"", printable(value));
        // A control character (a NUL from "\u0000", a newline from "\n") has
        // no place in a flag's value and would split the line of any message
        // that quotes it.
        for (const char c : value)
          if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return fmt::format("control character \\x{:02x} in \"{}\"", static_cast<unsigned char>(c),
                               printable(value));
        return text = value, "";
      }
      return wrong;
  }
  return wrong;
}

// The inputs for `opt` from `v` (a list for a multi-value option such as
// --hidden), or the reason they do not fit it.
std::string to_inputs(const CLI::Option& opt, const toml::node& v, std::vector<std::string>& inputs) {
  const Kind kind = kind_of(opt);
  const bool list = opt.get_items_expected_max() > 1;
  if (const auto* array = v.as_array()) {
    if (!list) return fmt::format("expected {}, got a list", expected(kind));
    if (array->empty()) return "the list is empty";
    if (array->size() > kMaxListValues)
      return fmt::format("a list of {} values; at most {} are taken", array->size(), kMaxListValues);
    for (const auto& element : *array) {
      std::string text;
      if (std::string error = to_input(kind, element, text); !error.empty()) {
        if (element.is_array() || element.is_table())
          return fmt::format("expected a flat list, got {} inside the list", describe(element));
        return "list value " + std::to_string(inputs.size() + 1) + ": " + error;
      }
      inputs.push_back(std::move(text));
    }
    return "";
  }
  std::string text;
  // A number flag whose --help default is "auto" (--target-entropy) takes it as a string too.
  if (const auto* s = v.as_string(); s != nullptr && s->get() == "auto" && accepts_auto(opt)) {
    inputs.emplace_back("auto");
    return "";
  }
  if (std::string error = to_input(kind, v, text); !error.empty()) return error;
  inputs.push_back(std::move(text));
  return "";
}

// " (did you mean 'max-frames'?)" for the command's closest flag name, when
// one is close.
std::string suggestion(const CLI::App& command, const std::string& key) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : command.get_options())
    for (const std::string& name : opt->get_lnames()) names.push_back(name);
  const std::string best = closest_name(key, names);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

std::string read_text(const std::string& path) {
  const std::string text = read_regular_file(path, "--config", kMaxFileBytes);
  std::size_t line = 1, start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    if (i - start > kMaxLineBytes)
      throw std::invalid_argument(fmt::format("{}:{}: the line is {} bytes long; config lines may be at most {}", path,
                                              line, i - start, kMaxLineBytes));
    ++line;
    start = i + 1;
  }
  return text;
}

struct Setting {
  std::size_t line;
  std::string key;  // as written
  const toml::node* value;
};

// `only`: the flags to take from the file, the others ignored (nullptr: every key is this command's).
void apply_config_keys(CLI::App& command, const std::string& path, const std::set<std::string>* only) {
  const std::string text = read_text(path);
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    std::string what(e.description());
    if (what.size() > 200) what = what.substr(0, 200) + "...";
    for (char& c : what)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    throw std::invalid_argument(
        fmt::format("{}:{}:{}: {}", path, e.source().begin.line, e.source().begin.column, what));
  }
  // The table is ordered by key; settings are checked in the file's order.
  std::vector<Setting> settings;
  for (const auto& [key, value] : table) settings.push_back({key.source().begin.line, std::string(key.str()), &value});
  std::sort(settings.begin(), settings.end(), [](const Setting& a, const Setting& b) { return a.line < b.line; });

  std::vector<std::string> warnings;  // given once every setting is read, so that an error stays one line
  // Option -> the line that set it and the name it used: a switch's two names
  // (`learn-temperature`, `fixed-temperature`) and a renamed flag's old and new
  // names are one option, and the file's second setting would go unread.
  std::map<const CLI::Option*, std::pair<std::size_t, std::string>> set_on;
  for (const Setting& s : settings) {
    const std::string at = fmt::format("{}:{}", path, s.line);
    std::string name = s.key;
    std::replace(name.begin(), name.end(), '_', '-');
    if (name == "config") throw std::invalid_argument(at + ": config: a config file may not name another");
    if (s.value->is_table())
      throw std::invalid_argument(
          fmt::format("{}: '{}' is a [section] or dotted key; config keys are flag names, "
                      "outside any section",
                      at, printable(s.key)));
    const std::string flag = "--" + name;  // as the file names it, for its errors
    const std::string current = current_flag_name(flag);
    if (only != nullptr && only->count(current) == 0) continue;  // another command's key
    if (current != flag) warnings.push_back(fmt::format("{}: {}", at, renamed_flag_warning(flag, current)));
    CLI::Option* opt = command.get_option_no_throw(current);
    if (!opt)
      throw std::invalid_argument(
          fmt::format("{}: unknown key '{}'{}", at, printable(s.key), suggestion(command, name)));
    // TOML refuses a key given twice; a flag given by its old and its new name is the same mistake.
    if (const auto [it, first] = set_on.emplace(opt, std::pair{s.line, current}); !first)
      throw std::invalid_argument(
          fmt::format("{}: {}: line {} already set {}", at, flag, it->second.first, it->second.second));
    std::vector<std::string> inputs;
    if (std::string error = to_inputs(*opt, *s.value, inputs); !error.empty())
      throw std::invalid_argument(fmt::format("{}: {}: {}", at, flag, error));
    if (opt->count() > 0) continue;  // the command line wins
    // A flag's negated name (`no-cuda-graphs = true`) sets it false.
    if (kind_of(*opt) == Kind::kBool && opt->get_items_expected_max() == 0)
      inputs.front() = opt->get_flag_value(current.substr(2), inputs.front());
    try {
      opt->add_result(inputs);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      throw std::invalid_argument(fmt::format("{}: {}", at, with_flag_as_typed(e.what(), current, flag)));
    }
  }
  for (const std::string& w : warnings) spdlog::warn("{}", w);
}

}  // namespace

void apply_config_file(CLI::App& command, const std::string& path) { apply_config_keys(command, path, nullptr); }

void apply_config_file_subset(CLI::App& command, const std::string& path, const std::set<std::string>& flags) {
  apply_config_keys(command, path, &flags);
}

namespace {

// The shortest text that reads back as `v` (0.99, not toml++'s
// 0.98999999999999999), still a TOML float (2.0, not 2).
std::string shortest_float(double v) {
  std::string s = fmt::format("{}", v);
  if (std::isfinite(v) && s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string given_settings_toml(const CLI::App& command) {
  toml::table table;
  std::map<std::string, std::string> floats;  // key -> its shortest text
  for (const CLI::Option* opt : command.get_options()) {
    if (opt->count() == 0 || opt->get_lnames().empty()) continue;
    const std::string name = opt->get_lnames().front();
    if (name == "config" || name == "resume" || name == "help") continue;
    // Which process this is, not what the run is: a resumed rank keeps its own.
    if (name == "rank" || name == "world-size" || name == "master-addr" || name == "master-port") continue;
    const Kind kind = kind_of(*opt);
    if (opt->get_items_expected_max() > 1) {  // a list: --hidden
      // The values as CLI11 converted them for the run ("0x40" is 64, "010" is 8).
      toml::array list;
      if (kind == Kind::kInteger)
        for (const std::int64_t v : opt->as<std::vector<std::int64_t>>()) list.push_back(v);
      else if (kind == Kind::kFloat)
        for (const double v : opt->as<std::vector<double>>()) list.push_back(v);
      else
        for (const std::string& v : opt->as<std::vector<std::string>>()) list.push_back(v);
      table.insert(name, std::move(list));
    } else if (kind == Kind::kBool) {
      table.insert(name, opt->as<bool>());
    } else if (kind == Kind::kInteger) {
      table.insert(name, opt->as<std::int64_t>());
    } else if (kind == Kind::kFloat && accepts_auto(*opt) && std::isnan(opt->as<double>())) {
      table.insert(name, "auto");  // as given; NaN would not read back
    } else if (kind == Kind::kFloat) {
      table.insert(name, opt->as<double>());
      floats[name] = shortest_float(opt->as<double>());
    } else {
      table.insert(name, opt->as<std::string>());
    }
  }
  std::ostringstream out;
  out << "# The settings this run was given; the rest are at their defaults (seedrl " << command.get_name()
      << " --help).\n# Rerun with: seedrl " << command.get_name() << " --config config.toml\n"
      << table << "\n";
  // toml++ prints every float with 17 digits: the single values' lines again, shortest.
  std::istringstream lines(out.str());
  std::string text, line;
  while (std::getline(lines, line)) {
    const auto eq = line.find(" = ");
    if (eq != std::string::npos)
      if (const auto it = floats.find(line.substr(0, eq)); it != floats.end()) line = it->first + " = " + it->second;
    text += line + "\n";
  }
  return text;
}

bool flag_given(const CLI::App& command, const std::string& flag) {
  const CLI::Option* o = command.get_option_no_throw(flag);
  return o != nullptr && o->count() > 0;
}

std::set<std::string> given_flags(const CLI::App& command) {
  std::set<std::string> given;
  for (const CLI::Option* opt : command.get_options())
    if (opt->count() > 0 && !opt->get_lnames().empty()) given.insert("--" + opt->get_lnames().front());
  return given;
}

}  // namespace seedrl
