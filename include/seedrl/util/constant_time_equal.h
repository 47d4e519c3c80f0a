// Token checks of the remote-actor server (net/) and the dashboard (report/):
// a comparison whose time does not tell an attacker how much of a guess was
// right.
#pragma once

#include <string_view>

namespace seedrl {

// Compares in time independent of where the strings differ.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace seedrl
