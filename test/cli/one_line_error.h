// The project's rule for bad input, as a check: the command exits with status
// 2 and prints exactly one line, naming the flag or file at fault.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "run_binary.h"

namespace seedrl::test {

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// Runs seedrl with `args`; checks status 2, one line, and that it contains
// `names`. Returns the run for further checks.
inline RunResult check_one_line_error(const std::vector<std::string>& args, const std::string& names) {
  RunResult r = run_seedrl(args);
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(names));
  CHECK(count_lines(r.output) == 1);
  return r;
}

}  // namespace seedrl::test
