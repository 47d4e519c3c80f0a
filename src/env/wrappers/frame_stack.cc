#include "seedrl/env/wrappers/frame_stack.h"

#include <cstring>
#include <stdexcept>

namespace seedrl {

FrameStack::FrameStack(EnvPtr inner, int k) : inner_(std::move(inner)), spec_(inner_->spec()), k_(k) {
  if (k < 1) throw std::invalid_argument("--frame-stack must be at least 1");
  const ArraySpec& o = inner_->spec().observation;
  if (o.shape.empty()) throw std::invalid_argument("--frame-stack needs an array observation");
  elem_bytes_ = dtype_size(o.dtype);
  frame_bytes_ = o.bytes();
  channels_ = static_cast<std::size_t>(o.shape.back());
  pixels_ = o.numel() / channels_;
  spec_.observation.shape.back() *= k;
  // Names follow the interleaved layout below: each pixel's channels of the
  // oldest frame first ("gray(t-3)" ... "gray(t)").
  if (k > 1 && !spec_.observation_names.empty()) {
    std::vector<std::string> names;
    for (int j = k - 1; j >= 0; --j)
      for (const std::string& n : inner_->spec().observation_names)
        names.push_back(n + (j == 0 ? "(t)" : "(t-" + std::to_string(j) + ")"));
    spec_.observation_names = std::move(names);
  }
  ring_.resize(frame_bytes_ * k);
}

void FrameStack::write(void* obs) const {
  // Interleave along the last axis: for every pixel, the C channels of the
  // oldest frame first, the newest last.
  auto* out = static_cast<std::uint8_t*>(obs);
  const std::size_t run = channels_ * elem_bytes_;
  if (run == 1 && k_ == 4) {
    // Atari's four grayscale frames: each pixel's four bytes as one word.
    const std::uint8_t* __restrict f[4];
    for (int j = 0; j < 4; ++j) f[j] = ring_.data() + ((newest_ + 1 + j) % 4) * frame_bytes_;
    for (std::size_t p = 0; p < pixels_; ++p) {
      const std::uint8_t px[4] = {f[0][p], f[1][p], f[2][p], f[3][p]};
      std::memcpy(out + 4 * p, px, 4);
    }
    return;
  }
  if (run == 1) {
    // One byte per pixel: a memcpy call per byte would cost more than the
    // copy; a strided loop per frame instead.
    for (int j = 0; j < k_; ++j) {
      const std::uint8_t* src = ring_.data() + ((newest_ + 1 + j) % k_) * frame_bytes_;
      for (std::size_t p = 0; p < pixels_; ++p) out[p * k_ + j] = src[p];
    }
    return;
  }
  if (run == 4) {
    // Four bytes a pixel (Football's four map planes, or one float): a
    // fixed-size copy the compiler turns into one load and store.
    for (int j = 0; j < k_; ++j) {
      const std::uint8_t* src = ring_.data() + ((newest_ + 1 + j) % k_) * frame_bytes_;
      std::uint8_t* dst = out + static_cast<std::size_t>(j) * 4;
      for (std::size_t p = 0; p < pixels_; ++p) std::memcpy(dst + p * 4 * k_, src + p * 4, 4);
    }
    return;
  }
  for (std::size_t p = 0; p < pixels_; ++p) {
    for (int j = 0; j < k_; ++j) {
      const int frame = (newest_ + 1 + j) % k_;
      std::memcpy(out, ring_.data() + frame * frame_bytes_ + p * run, run);
      out += run;
    }
  }
}

void FrameStack::reset(std::optional<std::uint64_t> seed, void* obs) {
  inner_->reset(seed, ring_.data());
  for (int j = 1; j < k_; ++j) std::memcpy(ring_.data() + j * frame_bytes_, ring_.data(), frame_bytes_);
  newest_ = 0;
  write(obs);
}

StepResult FrameStack::step(const Action& action, void* obs) {
  newest_ = (newest_ + 1) % k_;
  const StepResult r = inner_->step(action, ring_.data() + newest_ * frame_bytes_);
  write(obs);
  return r;
}

}  // namespace seedrl
