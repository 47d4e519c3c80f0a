// Text from files a report reads (run names, config values, metric keys) on
// its way into HTML or into a one-line error.
#pragma once

#include <string>
#include <string_view>

namespace seedrl::report {

// & < > " ' as character references: safe in element text and in quoted
// attribute values.
std::string html_escape(std::string_view text);

// Control characters (a newline in a file name) as spaces, and at most
// `max_chars` of it, so an error message stays one line.
std::string one_line(std::string_view text, std::size_t max_chars = 300);

}  // namespace seedrl::report
