#include "seedrl/env/render.h"

#include "seedrl/env/env.h"

namespace seedrl {

void RgbImage::reset(int h, int w, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  height = h;
  width = w;
  rgb.resize(static_cast<std::size_t>(h) * w * 3);
  for (std::size_t i = 0; i < rgb.size(); i += 3) {
    rgb[i] = r;
    rgb[i + 1] = g;
    rgb[i + 2] = b;
  }
}

bool render_rgb(Env& env, RgbImage& out) {
  auto* r = dynamic_cast<RgbRenderable*>(&env);
  return r != nullptr && r->render_rgb(out);
}

double render_fps(const Env& env) {
  const auto* r = dynamic_cast<const RgbRenderable*>(&env);
  return r != nullptr ? r->render_fps() : 0.0;
}

}  // namespace seedrl
