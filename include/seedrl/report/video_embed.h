// The agent's video in a report: LOGDIR/video.gif (train --record-every-s)
// inlined as a data: URI, so the page stays one self-contained file.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace seedrl::report {

// Larger videos are left out of the page, with a line saying so.
constexpr std::size_t kMaxEmbeddedVideoBytes = std::size_t{20} << 20;

// Where `train --record-every-s` writes a run's video (trainer/checkpoint_video.h):
// the report reads it, and sits below the trainer, so the name lives here.
std::string video_path(const std::string& logdir);

// The HTML for `logdir`'s video: an <img>, a note when it is too large or
// cannot be read, "" when the run has none.
std::string video_html(const std::string& logdir);

// RFC 4648 base64, with padding.
std::string base64(std::string_view bytes);

}  // namespace seedrl::report
