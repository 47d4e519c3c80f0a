#include "seedrl/env/spec.h"

#include <sstream>
#include <stdexcept>

namespace seedrl {

std::size_t dtype_size(DType d) {
  switch (d) {
    case DType::kFloat32:
      return 4;
    case DType::kUInt8:
      return 1;
  }
  throw std::logic_error("unknown dtype");
}

const char* dtype_name(DType d) {
  switch (d) {
    case DType::kFloat32:
      return "float32";
    case DType::kUInt8:
      return "uint8";
  }
  return "?";
}

std::size_t ArraySpec::numel() const {
  std::size_t n = 1;
  for (auto s : shape) n *= static_cast<std::size_t>(s);
  return n;
}

std::string ArraySpec::to_string() const {
  std::ostringstream os;
  os << dtype_name(dtype) << '[';
  for (std::size_t i = 0; i < shape.size(); ++i) os << (i ? "," : "") << shape[i];
  os << ']';
  return os.str();
}

ActionSpec ActionSpec::discrete(int n) {
  ActionSpec a;
  a.kind = Kind::kDiscrete;
  a.num_actions = n;
  a.dim = 1;
  return a;
}

ActionSpec ActionSpec::box(std::vector<float> low, std::vector<float> high) {
  if (low.size() != high.size() || low.empty())
    throw std::invalid_argument("ActionSpec::box: low/high must be non-empty and equal in size");
  ActionSpec a;
  a.kind = Kind::kContinuous;
  a.dim = static_cast<int>(low.size());
  a.low = std::move(low);
  a.high = std::move(high);
  return a;
}

std::string ActionSpec::to_string() const {
  std::ostringstream os;
  if (is_discrete()) {
    os << "discrete(" << num_actions << ")";
  } else {
    os << "box(" << dim << ")[";
    // Show the bounds compactly when all dimensions share them.
    bool uniform = true;
    for (int i = 1; i < dim; ++i) uniform = uniform && low[i] == low[0] && high[i] == high[0];
    if (uniform) {
      os << low[0] << "," << high[0];
    } else {
      for (int i = 0; i < dim; ++i) os << (i ? " " : "") << low[i] << ":" << high[i];
    }
    os << "]";
  }
  return os.str();
}

}  // namespace seedrl
