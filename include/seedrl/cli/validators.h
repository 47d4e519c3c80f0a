// CLI11 validators shared by the commands.
#pragma once

#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <CLI/CLI.hpp>

namespace seedrl {

// Accepts a registered environment name; the error lists the valid ones.
CLI::Validator env_name_validator();

// One of `choices`, each listed once, apart, in --help ("{scoring |
// scoring,checkpoints}") and in the error. CLI::IsMember joins them with
// commas, which misreads where a choice holds one ("{scoring,checkpoints,scoring}").
CLI::Validator one_of(std::vector<std::string> choices);

namespace number_check {

// How a numeric flag's value is parsed, the way CLI11 converts it (strtold for
// floats, strtoll / strtoull base 0 for integers), the limits of its type and
// the rounding to it (a range's 0.1 is the double nearest 0.1, not 0.1L).
struct NumberType {
  enum Kind { kFloat, kSigned, kUnsigned } kind;
  long double lowest, max;
  long double (*round)(long double);
};

template <typename T>
NumberType number_type() {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  using L = std::numeric_limits<T>;
  const auto kind = std::is_floating_point_v<T> ? NumberType::kFloat
                    : std::is_signed_v<T>       ? NumberType::kSigned
                                                : NumberType::kUnsigned;
  return {kind, static_cast<long double>(L::lowest()), static_cast<long double>(L::max()),
          [](long double v) { return static_cast<long double>(static_cast<T>(v)); }};
}

enum class Bound { kRange, kPositive, kNonNegative, kAny };

// The value must be a finite number of `type` and, for kRange, within
// [min, max]. kAny has no --help text; the others read as CLI11's did. A
// float's magnitude must also fit a 32-bit float: at most FLT_MAX, and at
// least FLT_MIN unless it is 0 (the learner computes in float32).
CLI::Validator number_in(NumberType type, Bound bound, long double min = 0, long double max = 0);

// The name of number_or_auto's validator, by which an option is known to take "auto".
inline constexpr const char* kAutoValidator = "number-or-auto";

}  // namespace number_check

// For a double flag whose default is decided at run time and held as NaN
// (--target-entropy: minus the action dimensions): "auto", the default
// --help shows, sets it to NaN; any other value must pass number_in's checks.
CLI::Validator number_or_auto();
// Whether `option` checks its values with number_or_auto.
bool accepts_auto(const CLI::Option& option);

// Numeric range checks, in place of CLI::Range, PositiveNumber and
// NonNegativeNumber: those let NaN through (every comparison with NaN is
// false), print DBL_MAX in full ("not in range 0.000000 to 1797693...") and
// parse as double, so an int64 flag's 1e20 passes and is then clamped to
// INT64_MAX. These parse as the flag's type T and fail with one line such as
// "--max-frames: must be positive, got 0".
template <typename T>
CLI::Validator in_range(T min, T max) {
  return number_check::number_in(number_check::number_type<T>(), number_check::Bound::kRange,
                                 static_cast<long double>(min), static_cast<long double>(max));
}
template <typename T = double>
CLI::Validator positive() {
  return number_check::number_in(number_check::number_type<T>(), number_check::Bound::kPositive);
}
template <typename T = double>
CLI::Validator non_negative() {
  return number_check::number_in(number_check::number_type<T>(), number_check::Bound::kNonNegative);
}

// Gives every numeric option of `command` (INT, UINT or FLOAT, vectors too) a
// check that its value is a number its type holds: finite for floats (NaN and
// infinities pass CLI11's conversion and any range check a flag lacks) that a
// 32-bit float holds, within int64 / uint64 for integers (CLI11 clamps
// 99999999999999999999 to the largest value and takes -1 as 2^64 - 1 for an
// unsigned flag). One that accepts_auto checks its own. Each command calls it
// after adding its last option, so no numeric flag goes without it.
void check_number_options(CLI::App& command);

}  // namespace seedrl
