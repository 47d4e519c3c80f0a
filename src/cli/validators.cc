#include "seedrl/cli/validators.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "seedrl/env/registry.h"

namespace seedrl {

CLI::Validator env_name_validator() {
  return CLI::Validator(
      [](std::string& name) -> std::string {
        const auto& registry = EnvRegistry::builtin();
        // Gymnasium-style names become ours here, so every later use (logs,
        // config.json, checkpoints) sees one name.
        if (std::string ours = registry.canonical(name); !ours.empty()) {
          name = std::move(ours);
          return {};
        }
        if (std::string near = registry.closest(name); !near.empty())
          return "unknown environment '" + name + "' (did you mean '" + near + "'? `seedrl envs` lists them all)";
        std::string valid;
        for (const auto& n : registry.names()) valid += (valid.empty() ? "" : ", ") + n;
        for (const auto& f : registry.families()) valid += ", " + f.prefix + f.member;
        return "unknown environment '" + name + "' (valid: " + valid + ")";
      },
      "ENV");
}

CLI::Validator one_of(std::vector<std::string> choices) {
  std::string listed;
  for (const std::string& c : choices) listed += (listed.empty() ? "" : " | ") + c;
  return CLI::Validator(
      [choices, listed](std::string& input) -> std::string {
        for (const std::string& c : choices)
          if (input == c) return {};
        return fmt::format("'{}' is not one of: {}", input, listed);
      },
      "{" + listed + "}");
}

namespace number_check {
namespace {

// A bound as CLI::Range printed it: integers in full, floats as a stream does.
std::string bound_text(const NumberType& type, long double v) {
  if (type.kind == NumberType::kSigned) return std::to_string(static_cast<long long>(v));
  if (type.kind == NumberType::kUnsigned) return std::to_string(static_cast<unsigned long long>(v));
  std::ostringstream out;
  out << static_cast<double>(v);
  return out.str();
}

// Parses `input` as CLI11 will convert it. Returns the error, or "" with
// `value` set to the number, which may lie outside what `type` holds (it is
// +-HUGE_VALL where strtoll / strtoull clamp and set ERANGE).
std::string parse(const NumberType& type, const std::string& input, long double& value) {
  const char* begin = input.c_str();
  char* end = nullptr;
  errno = 0;
  if (type.kind == NumberType::kFloat) {
    value = std::strtold(begin, &end);
    if (input.empty() || end != begin + input.size()) return fmt::format("expected a number, got '{}'", input);
    if (!std::isfinite(value)) return fmt::format("must be a finite number, got {}", input);
    return {};
  }
  const auto first = input.find_first_not_of(" \t\n\v\f\r");
  const bool negative = first != std::string::npos && input[first] == '-';
  if (type.kind == NumberType::kSigned) {
    value = static_cast<long double>(std::strtoll(begin, &end, 0));
  } else {
    // strtoull takes "-n" as 2^64 - n.
    const unsigned long long u = std::strtoull(begin, &end, 0);
    value = negative ? -static_cast<long double>(0ULL - u) : static_cast<long double>(u);
  }
  if (input.empty() || end != begin + input.size()) return fmt::format("expected an integer, got '{}'", input);
  if (errno == ERANGE) value = negative ? -HUGE_VALL : HUGE_VALL;
  return {};
}

// A float flag's value ends up in the learner's float32 tensors (rates,
// temperatures, reward scales, targets) or beside them: one that a float
// cannot hold would become infinity there, or zero (1e-50 for --tau: no
// update at all), and a run would go on to NaN or to nothing without a word.
// No flag has a use for such values, seconds and returns included.
std::string float32_error(long double v, const std::string& input) {
  // The magnitude as the flag's double, then a float, rounds it: 3.4028235e38
  // is FLT_MAX. From FLT_MAX + half its ulp (2^103) on, a float rounds it to
  // infinity; converting such a double is undefined, so it is not converted.
  const long double magnitude = std::fabs(v);
  const double as_double = magnitude > DBL_MAX ? HUGE_VAL : static_cast<double>(magnitude);
  const float held = as_double >= static_cast<double>(FLT_MAX) + 0x1p103 ? HUGE_VALF : static_cast<float>(as_double);
  if (std::isinf(held))
    return v > 0 ? fmt::format("must be at most {} (a 32-bit float), got {}", FLT_MAX, input)
                 : fmt::format("must be at least {} (a 32-bit float), got {}", -FLT_MAX, input);
  if (v != 0 && held < FLT_MIN)
    return fmt::format("underflows a 32-bit float (a nonzero value needs a magnitude of at least {}), got {}", FLT_MIN,
                       input);
  return {};
}

}  // namespace

CLI::Validator number_in(NumberType type, Bound bound, long double min, long double max) {
  std::string description;
  if (bound == Bound::kRange) {
    const char* name = type.kind == NumberType::kFloat ? "FLOAT" : type.kind == NumberType::kSigned ? "INT" : "UINT";
    description = fmt::format("{} in [{} - {}]", name, bound_text(type, min), bound_text(type, max));
  } else if (bound == Bound::kPositive) {
    description = "POSITIVE";
  } else if (bound == Bound::kNonNegative) {
    description = "NONNEGATIVE";
  }
  return CLI::Validator(
      [type, bound, min, max](std::string& input) -> std::string {
        long double v = 0;
        if (std::string error = parse(type, input, v); !error.empty()) return error;
        const bool fits = v >= type.lowest && v <= type.max;
        const long double rounded = fits ? type.round(v) : v;  // as the flag will hold it
        switch (bound) {
          case Bound::kRange:
            if (rounded < min || rounded > max)
              return fmt::format("must be in [{}, {}], got {}", bound_text(type, min), bound_text(type, max), input);
            break;
          case Bound::kPositive:
            if (rounded <= 0) return fmt::format("must be positive, got {}", input);
            break;
          case Bound::kNonNegative:
            if (rounded < 0) return fmt::format("must not be negative, got {}", input);
            break;
          case Bound::kAny:
            break;
        }
        if (type.kind == NumberType::kFloat) return float32_error(v, input);
        if (v > type.max) return fmt::format("must be at most {}, got {}", bound_text(type, type.max), input);
        if (v < type.lowest) return fmt::format("must be at least {}, got {}", bound_text(type, type.lowest), input);
        return {};
      },
      description);
}

}  // namespace number_check

CLI::Validator number_or_auto() {
  using namespace number_check;
  const CLI::Validator number = number_in(number_type<double>(), Bound::kAny);
  return CLI::Validator(
      [number](std::string& input) -> std::string {
        if (input == "auto") {
          input = "nan";  // what the flag holds for "decided at run time"
          return {};
        }
        return number(input);
      },
      "", kAutoValidator);
}

bool accepts_auto(const CLI::Option& option) {
  // CLI11 2.1's get_validator is not const and throws for a name it lacks.
  try {
    const_cast<CLI::Option&>(option).get_validator(number_check::kAutoValidator);
    return true;
  } catch (const CLI::OptionNotFound&) {
    return false;
  }
}

void check_number_options(CLI::App& command) {
  using number_check::Bound;
  using number_check::number_in;
  using number_check::number_type;
  for (CLI::Option* opt : command.get_options()) {
    if (opt->get_items_expected_max() == 0) continue;  // a flag: nothing to parse
    if (accepts_auto(*opt)) continue;                  // number_or_auto checks its numbers itself
    const std::string type = opt->get_type_name();
    const std::string base = type.substr(0, type.find(':'));  // then the validators' descriptions
    if (base == "FLOAT")
      opt->check(number_in(number_type<double>(), Bound::kAny));
    else if (base == "INT")
      opt->check(number_in(number_type<std::int64_t>(), Bound::kAny));
    else if (base == "UINT")
      opt->check(number_in(number_type<std::uint64_t>(), Bound::kAny));
  }
}

}  // namespace seedrl
