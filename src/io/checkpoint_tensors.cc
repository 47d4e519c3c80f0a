#include "seedrl/io/checkpoint_tensors.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include <torch/torch.h>

#include "seedrl/io/checkpoint.h"

namespace seedrl {

static_assert(std::endian::native == std::endian::little,
              "checkpoints hold little-endian bytes; a big-endian host would need byte swaps");

namespace {

struct DTypeInfo {
  const char* name;
  c10::ScalarType type;
  std::uint64_t item_bytes;
};

constexpr DTypeInfo kDTypes[] = {
    {"float32", c10::ScalarType::Float, 4}, {"float64", c10::ScalarType::Double, 8},
    {"float16", c10::ScalarType::Half, 2},  {"bfloat16", c10::ScalarType::BFloat16, 2},
    {"int64", c10::ScalarType::Long, 8},    {"int32", c10::ScalarType::Int, 4},
    {"int16", c10::ScalarType::Short, 2},   {"int8", c10::ScalarType::Char, 1},
    {"uint8", c10::ScalarType::Byte, 1},    {"bool", c10::ScalarType::Bool, 1},
};

const DTypeInfo* find_dtype(const std::string& name) {
  for (const auto& d : kDTypes)
    if (name == d.name) return &d;
  return nullptr;
}

const DTypeInfo* find_dtype(c10::ScalarType t) {
  for (const auto& d : kDTypes)
    if (t == d.type) return &d;
  return nullptr;
}

// More dims than any layer has; bounds the work a crafted shape can ask for.
constexpr std::size_t kMaxDims = 16;

}  // namespace

std::string printable(const std::string& s, std::size_t max) {
  std::string out;
  for (char c : s.substr(0, max)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (s.size() > max) out += "...";
  return out;
}

std::string dtype_name(c10::ScalarType t) {
  const DTypeInfo* d = find_dtype(t);
  return d ? d->name : c10::toString(t);
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

nlohmann::json CheckpointTensorWriter::add(const std::string& name, const at::Tensor& t) {
  const DTypeInfo* d = find_dtype(t.scalar_type());
  if (!d)
    throw CheckpointError("cannot save tensor " + name + ": dtype " + c10::toString(t.scalar_type()) +
                          " has no checkpoint encoding");
  const at::Tensor host = t.detach().to(torch::kCPU).contiguous();
  const std::uint64_t bytes = static_cast<std::uint64_t>(host.numel()) * d->item_bytes;
  const std::uint64_t offset = data_.size();
  data_.append(static_cast<const char*>(host.data_ptr()), bytes);
  return {{"name", name}, {"dtype", d->name}, {"shape", host.sizes().vec()}, {"offset", offset}, {"bytes", bytes}};
}

CheckpointIndexReader::CheckpointIndexReader(std::string path, const char* data, std::uint64_t data_bytes)
    : path_(std::move(path)), data_(data), data_bytes_(data_bytes) {}

void CheckpointIndexReader::fail(const std::string& what) const {
  std::string line = "checkpoint " + path_ + " " + what;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  throw CheckpointError(line);
}

const nlohmann::json& CheckpointIndexReader::field(const nlohmann::json& j, const char* key,
                                                   const std::string& where) const {
  if (!j.is_object()) fail("is damaged: " + where + " is not a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) fail("is damaged: " + where + " has no \"" + key + "\"");
  return *it;
}

std::string CheckpointIndexReader::string_field(const nlohmann::json& j, const char* key,
                                                const std::string& where) const {
  const auto& v = field(j, key, where);
  if (!v.is_string()) fail("is damaged: " + where + " \"" + key + "\" is not a string");
  return v.get<std::string>();
}

std::int64_t CheckpointIndexReader::int_field(const nlohmann::json& j, const char* key, const std::string& where,
                                              std::int64_t min) const {
  const auto& v = field(j, key, where);
  // is_number_integer holds for unsigned numbers too; above INT64_MAX they are refused.
  const bool fits = v.is_number_unsigned()  ? v.get<std::uint64_t>() <= std::numeric_limits<std::int64_t>::max()
                    : v.is_number_integer() ? true
                                            : false;
  if (!fits) fail("is damaged: " + where + " \"" + key + "\" is not a 64-bit integer");
  const std::int64_t x =
      v.is_number_unsigned() ? static_cast<std::int64_t>(v.get<std::uint64_t>()) : v.get<std::int64_t>();
  if (x < min)
    fail("is damaged: " + where + " \"" + key + "\" is " + std::to_string(x) + ", below " + std::to_string(min));
  return x;
}

double CheckpointIndexReader::number_field(const nlohmann::json& j, const char* key, const std::string& where) const {
  const auto& v = field(j, key, where);
  if (!v.is_number()) fail("is damaged: " + where + " \"" + key + "\" is not a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) fail("is damaged: " + where + " \"" + key + "\" is not finite");
  return x;
}

CheckpointTensor CheckpointIndexReader::tensor_entry(const nlohmann::json& j, const std::string& where) {
  CheckpointTensor e;
  e.name = string_field(j, "name", "a tensor of " + where);
  const std::string what = "tensor '" + printable(e.name) + "' of " + where;
  const std::string dtype = string_field(j, "dtype", what);
  const DTypeInfo* d = find_dtype(dtype);
  if (!d) fail("is damaged: " + what + " has unknown dtype '" + printable(dtype) + "'");
  e.dtype = d->type;
  const auto& shape = field(j, "shape", what);
  if (!shape.is_array() || shape.size() > kMaxDims)
    fail("is damaged: " + what + " has no shape of at most " + std::to_string(kMaxDims) + " dims");
  std::uint64_t elements = 1;
  for (const auto& dim : shape) {
    if (!dim.is_number_integer()) fail("is damaged: " + what + " has a dim that is not an integer");
    if (!dim.is_number_unsigned()) fail("is damaged: " + what + " has a negative dim");
    const std::uint64_t n = dim.get<std::uint64_t>();
    if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
        __builtin_mul_overflow(elements, n, &elements))
      fail("is damaged: " + what + " has a shape too large to exist");
    e.shape.push_back(static_cast<std::int64_t>(n));
  }
  e.offset = static_cast<std::uint64_t>(int_field(j, "offset", what));
  e.bytes = static_cast<std::uint64_t>(int_field(j, "bytes", what));
  std::uint64_t expected = 0;
  if (__builtin_mul_overflow(elements, d->item_bytes, &expected) || expected != e.bytes)
    fail("is damaged: " + what + " claims " + std::to_string(e.bytes) + " bytes for " + dtype + " " +
         shape_text(e.shape));
  if (e.offset != next_offset_)
    fail("is damaged: " + what + " starts at byte " + std::to_string(e.offset) + " of the data, not at " +
         std::to_string(next_offset_));
  if (e.bytes > data_bytes_ - next_offset_) fail("is damaged: " + what + " runs past the end of the file");
  next_offset_ += e.bytes;
  if (e.dtype == c10::ScalarType::Bool)  // any other byte is not a bool
    for (std::uint64_t i = 0; i < e.bytes; ++i)
      if (static_cast<unsigned char>(data_[e.offset + i]) > 1) fail("is damaged: " + what + " holds a non-bool byte");
  return e;
}

std::vector<CheckpointTensor> CheckpointIndexReader::tensor_list(const nlohmann::json& j, const std::string& where) {
  if (!j.is_array()) fail("is damaged: the tensors of " + where + " are not a list");
  std::vector<CheckpointTensor> out;
  std::unordered_set<std::string> names;
  for (const auto& entry : j) {
    out.push_back(tensor_entry(entry, where));
    if (!names.insert(out.back().name).second)
      fail("is damaged: " + where + " holds tensor '" + printable(out.back().name) + "' twice");
  }
  return out;
}

void CheckpointIndexReader::check_all_data_read() const {
  if (next_offset_ != data_bytes_)
    fail("is damaged: its index describes " + std::to_string(next_offset_) + " bytes of tensor data, the file holds " +
         std::to_string(data_bytes_));
}

at::Tensor CheckpointIndexReader::make_tensor(const CheckpointTensor& e) const {
  at::Tensor t = torch::empty(e.shape, torch::TensorOptions().dtype(e.dtype));
  if (e.bytes > 0) std::memcpy(t.data_ptr(), data_ + e.offset, e.bytes);
  return t;
}

}  // namespace seedrl
