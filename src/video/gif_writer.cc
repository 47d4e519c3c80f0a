#include "seedrl/video/gif_writer.h"

#include <gif_lib.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace seedrl {

namespace {

int write_to_string(GifFileType* gif, const GifByteType* data, int n) {
  static_cast<std::string*>(gif->UserData)->append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
  return n;
}

void check(int status, GifFileType* gif, const char* what) {
  if (status != GIF_OK)
    throw std::runtime_error(std::string("GIF writer: ") + what + ": " + GifErrorString(gif->Error));
}

}  // namespace

struct GifWriter::Impl {
  std::string bytes;
  GifFileType* gif = nullptr;
  int height = 0, width = 0;
  std::vector<GifPixelType> indices;
  std::vector<GifColorType> colours;
  std::unordered_map<std::uint32_t, int> index_of;

  // Fills `indices` and `colours` (a power of two in size, as GIF wants).
  void quantise(const RgbImage& f) {
    const std::size_t n = static_cast<std::size_t>(f.height) * f.width;
    indices.resize(n);
    colours.clear();
    index_of.clear();
    bool exact = true;
    std::uint32_t last_key = ~0u;  // runs of one colour skip the map
    int last_index = 0;
    for (std::size_t i = 0; i < n && exact; ++i) {
      const std::uint8_t* p = f.rgb.data() + 3 * i;
      const std::uint32_t key = (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2];
      if (key != last_key) {
        auto [it, added] = index_of.try_emplace(key, static_cast<int>(colours.size()));
        if (added) {
          if (colours.size() == 256)
            exact = false;
          else
            colours.push_back(GifColorType{p[0], p[1], p[2]});
        }
        last_key = key;
        last_index = it->second;
      }
      indices[i] = static_cast<GifPixelType>(last_index);
    }
    if (!exact) {
      colours.clear();
      for (int r = 0; r < 6; ++r)
        for (int g = 0; g < 7; ++g)
          for (int b = 0; b < 6; ++b)
            colours.push_back(GifColorType{static_cast<GifByteType>(r * 255 / 5), static_cast<GifByteType>(g * 255 / 6),
                                           static_cast<GifByteType>(b * 255 / 5)});
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* p = f.rgb.data() + 3 * i;
        const int r = (p[0] * 5 + 127) / 255, g = (p[1] * 6 + 127) / 255, b = (p[2] * 5 + 127) / 255;
        indices[i] = static_cast<GifPixelType>((r * 7 + g) * 6 + b);
      }
    }
    std::size_t size = 2;
    while (size < colours.size()) size *= 2;
    colours.resize(size, GifColorType{0, 0, 0});
  }

  void open(int h, int w) {
    int error = 0;
    gif = EGifOpen(&bytes, write_to_string, &error);
    if (gif == nullptr) throw std::runtime_error(std::string("GIF writer: ") + GifErrorString(error));
    height = h;
    width = w;
    EGifSetGifVersion(gif, true);
    check(EGifPutScreenDesc(gif, w, h, 8, 0, nullptr), gif, "screen");
    // NETSCAPE2.0 application block: loop forever.
    check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), gif, "loop");
    check(EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0"), gif, "loop");
    const unsigned char loop[3] = {1, 0, 0};
    check(EGifPutExtensionBlock(gif, 3, loop), gif, "loop");
    check(EGifPutExtensionTrailer(gif), gif, "loop");
  }

  ~Impl() {
    if (gif != nullptr) EGifCloseFile(gif, nullptr);
  }
};

GifWriter::GifWriter(int delay_cs) : impl_(std::make_unique<Impl>()), delay_cs_(delay_cs) {}
GifWriter::~GifWriter() = default;

int GifWriter::delay_for_fps(double fps) {
  if (!(fps > 0)) return 10;
  return std::max(2, static_cast<int>(std::lround(100.0 / fps)));
}

void GifWriter::add(const RgbImage& f) {
  Impl& m = *impl_;
  if (m.gif == nullptr) m.open(f.height, f.width);
  if (f.height != m.height || f.width != m.width)
    throw std::invalid_argument("GIF writer: frame of " + std::to_string(f.width) + "x" + std::to_string(f.height) +
                                " in a " + std::to_string(m.width) + "x" + std::to_string(m.height) + " GIF");
  m.quantise(f);
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.UserInputFlag = false;
  gcb.DelayTime = delay_cs_;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const std::size_t ext_len = EGifGCBToExtension(&gcb, ext);
  check(EGifPutExtension(m.gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(ext_len), ext), m.gif, "frame delay");
  ColorMapObject* map = GifMakeMapObject(static_cast<int>(m.colours.size()), m.colours.data());
  if (map == nullptr) throw std::runtime_error("GIF writer: colour map");
  const int put = EGifPutImageDesc(m.gif, 0, 0, m.width, m.height, false, map);
  GifFreeMapObject(map);
  check(put, m.gif, "frame");
  for (int y = 0; y < m.height; ++y)
    check(EGifPutLine(m.gif, m.indices.data() + static_cast<std::size_t>(y) * m.width, m.width), m.gif, "frame");
  ++frames_;
}

std::string GifWriter::finish() {
  Impl& m = *impl_;
  if (m.gif == nullptr) {
    RgbImage black;
    black.reset(1, 1, 0, 0, 0);
    add(black);
  }
  int error = 0;
  const int status = EGifCloseFile(m.gif, &error);
  m.gif = nullptr;
  if (status != GIF_OK) throw std::runtime_error(std::string("GIF writer: ") + GifErrorString(error));
  return std::move(m.bytes);
}

}  // namespace seedrl
