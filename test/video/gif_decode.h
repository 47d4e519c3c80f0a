// Reads a GIF back with giflib's own decoder (DGifOpenFileName + DGifSlurp):
// the independent reference the video tests compare against.
#pragma once

#include <gif_lib.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/env/render.h"

namespace seedrl::test {

struct DecodedFrame {
  RgbImage image;
  int delay_cs = -1;
};

inline std::vector<DecodedFrame> decode_gif(const std::string& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  if (gif == nullptr) throw std::runtime_error("cannot open " + path + ": " + GifErrorString(error));
  if (DGifSlurp(gif) != GIF_OK) {
    const std::string what = GifErrorString(gif->Error);
    DGifCloseFile(gif, &error);
    throw std::runtime_error("cannot decode " + path + ": " + what);
  }
  std::vector<DecodedFrame> out;
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& s = gif->SavedImages[i];
    const ColorMapObject* map = s.ImageDesc.ColorMap ? s.ImageDesc.ColorMap : gif->SColorMap;
    if (map == nullptr) throw std::runtime_error(path + ": frame without a colour map");
    DecodedFrame f;
    f.image.reset(s.ImageDesc.Height, s.ImageDesc.Width, 0, 0, 0);
    for (int p = 0; p < s.ImageDesc.Height * s.ImageDesc.Width; ++p) {
      const GifColorType& c = map->Colors[s.RasterBits[p]];
      f.image.rgb[3 * p] = c.Red;
      f.image.rgb[3 * p + 1] = c.Green;
      f.image.rgb[3 * p + 2] = c.Blue;
    }
    GraphicsControlBlock gcb;
    if (DGifSavedExtensionToGCB(gif, i, &gcb) == GIF_OK) f.delay_cs = gcb.DelayTime;
    out.push_back(std::move(f));
  }
  DGifCloseFile(gif, &error);
  return out;
}

}  // namespace seedrl::test
