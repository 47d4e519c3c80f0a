// The charting library a report embeds: Debian's libjs-dygraphs
// (dygraph.min.js and dygraph.min.css), read at run time and inlined into the
// page, which then opens offline. The directory found at configure time comes
// first, then /usr/share/javascript/dygraphs.
#pragma once

#include <string>

namespace seedrl::report {

struct DygraphsAssets {
  std::string js, css;  // safe inside <script> and <style> elements
};

// Throws std::runtime_error, one line saying to install libjs-dygraphs.
DygraphsAssets load_dygraphs();

}  // namespace seedrl::report
