// The one-line error for a command line with a flag the command does not have:
// "unknown flag --max-frame for train (did you mean --max-frames?)", instead
// of CLI11's "The following arguments were not expected: 1000 --max-frame".
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace seedrl {

// For argv whose command (argv[1]) is a subcommand of `app`: the message for
// its first "--flag" the command does not know, or "" when every flag is known.
std::string unknown_flag_message(const CLI::App& app, int argc, const char* const* argv);

}  // namespace seedrl
