#include "seedrl/report/video_embed.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "seedrl/report/text.h"

namespace seedrl::report {

std::string base64(std::string_view in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
  }
  if (i < in.size()) {
    const bool two = i + 1 < in.size();
    const unsigned v =
        (static_cast<unsigned char>(in[i]) << 16) | (two ? static_cast<unsigned char>(in[i + 1]) << 8 : 0);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], two ? kAlphabet[(v >> 6) & 63] : '=', '='};
  }
  return out;
}

std::string video_path(const std::string& logdir) { return (std::filesystem::path(logdir) / "video.gif").string(); }

std::string video_html(const std::string& logdir) {
  const std::string path = video_path(logdir);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return "<p class=\"note\">" + html_escape(path) + " cannot be read: " + html_escape(ec.message()) + "</p>\n";
  if (size > kMaxEmbeddedVideoBytes)
    return "<p class=\"note\">" + html_escape(path) +
           fmt::format(" is left out: {} MB, more than the {} MB a page embeds</p>\n", size >> 20,
                       kMaxEmbeddedVideoBytes >> 20);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return "<p class=\"note\">" + html_escape(path) + " cannot be read</p>\n";
  return "<p><img class=\"video\" alt=\"the agent playing (" + html_escape(path) + ")\" src=\"data:image/gif;base64," +
         base64(bytes) + "\"></p>\n";
}

}  // namespace seedrl::report
