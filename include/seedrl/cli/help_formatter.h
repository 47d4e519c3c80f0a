// `--help` as users read it: CLI11 writes a negatable switch as
// `--lstm,--no-lstm{false}`, where `{false}` is the value --no-lstm sets yet
// reads as the default. This formatter drops those braces and says each
// switch's default instead: `--lstm,--no-lstm (default: off)`.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace seedrl {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
};

}  // namespace seedrl
