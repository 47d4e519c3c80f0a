#include "seedrl/report/dygraphs_assets.h"

#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "seedrl/io/input_file.h"

#ifndef SEEDRL_DYGRAPHS_DIR
#define SEEDRL_DYGRAPHS_DIR ""
#endif

namespace seedrl::report {

namespace {

constexpr std::size_t kMaxAssetBytes = std::size_t{8} << 20;
constexpr const char* kDebianDir = "/usr/share/javascript/dygraphs";

// Drops "//# sourceMappingURL=..." lines: the page is self-contained, and a
// browser's developer tools would try to fetch the map.
std::string without_source_map(std::string text) {
  for (const char* mark : {"//# sourceMappingURL=", "/*# sourceMappingURL="}) {
    for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) {
      const auto end = text.find('\n', at);
      text.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
  }
  return text;
}

// "</script" or "</style" (any case) would end the element early. It can
// only occur inside a string, a regular expression or a comment, where "<\/"
// means the same.
std::string safe_in_element(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] != '<' || i + 1 >= text.size() || text[i + 1] != '/') continue;
    std::string next = text.substr(i + 2, 6);
    for (char& c : next) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (next == "script" || next.rfind("style", 0) == 0) out += '\\';
  }
  return out;
}

}  // namespace

DygraphsAssets load_dygraphs() {
  std::vector<std::string> dirs;
  if (std::string(SEEDRL_DYGRAPHS_DIR).size() > 0) dirs.emplace_back(SEEDRL_DYGRAPHS_DIR);
  dirs.emplace_back(kDebianDir);
  for (const auto& dir : dirs) {
    const std::filesystem::path js = std::filesystem::path(dir) / "dygraph.min.js";
    const std::filesystem::path css = std::filesystem::path(dir) / "dygraph.min.css";
    std::error_code ec;
    if (!std::filesystem::exists(js, ec) || !std::filesystem::exists(css, ec)) continue;
    DygraphsAssets out;
    out.js = safe_in_element(without_source_map(read_regular_file(js.string(), "dygraphs file", kMaxAssetBytes)));
    out.css = safe_in_element(without_source_map(read_regular_file(css.string(), "dygraphs file", kMaxAssetBytes)));
    return out;
  }
  throw std::runtime_error(std::string("seedrl report needs the dygraphs charting library, not found in ") +
                           kDebianDir + ": install libjs-dygraphs (apt-get install libjs-dygraphs)");
}

}  // namespace seedrl::report
