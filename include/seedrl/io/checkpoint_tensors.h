// The tensors inside a checkpoint file: their bytes back to back in one data
// block, each described by an entry of the file's JSON index
//   {"name": "...", "dtype": "float32", "shape": [64, 4], "offset": 0, "bytes": 1024}
// (offset into the data block, raw little-endian bytes of the contiguous
// tensor). A checkpoint is untrusted input: the reader checks every field of
// an entry before any tensor is made from it, and no file byte ever reaches
// LibTorch's own archive or TorchScript readers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>
#include <nlohmann/json.hpp>

namespace seedrl {

// Appends tensors to the data block and describes them for the index.
class CheckpointTensorWriter {
 public:
  // Copies `t` (any device) to the host; returns its index entry.
  nlohmann::json add(const std::string& name, const at::Tensor& t);
  const std::string& data() const { return data_; }

 private:
  std::string data_;
};

struct CheckpointTensor {
  std::string name;
  c10::ScalarType dtype = c10::ScalarType::Float;
  std::vector<std::int64_t> shape;
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
};

// Reads the index of checkpoint `path` against its data block. Every failure
// is a CheckpointError of one line naming the file. Entries must be read in
// file order: each starts where the previous one ended.
class CheckpointIndexReader {
 public:
  CheckpointIndexReader(std::string path, const char* data, std::uint64_t data_bytes);

  // One tensor entry: known dtype, dims >= 0, bytes == elements * item size
  // (no overflow), inside the data block. `where` names its list in messages.
  CheckpointTensor tensor_entry(const nlohmann::json& j, const std::string& where);
  // A list of entries whose names are unique.
  std::vector<CheckpointTensor> tensor_list(const nlohmann::json& j, const std::string& where);
  // Throws unless the entries read so far cover the data block exactly.
  void check_all_data_read() const;

  // A host tensor holding an entry's bytes (entries come from this reader).
  at::Tensor make_tensor(const CheckpointTensor& e) const;

  // Checked field access: the member `key` of object `j`, of the given kind.
  const nlohmann::json& field(const nlohmann::json& j, const char* key, const std::string& where) const;
  std::string string_field(const nlohmann::json& j, const char* key, const std::string& where) const;
  std::int64_t int_field(const nlohmann::json& j, const char* key, const std::string& where,
                         std::int64_t min = 0) const;
  double number_field(const nlohmann::json& j, const char* key, const std::string& where) const;

  // Throws CheckpointError("checkpoint <path> <what>") as one line.
  [[noreturn]] void fail(const std::string& what) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const char* data_;
  std::uint64_t data_bytes_;
  std::uint64_t next_offset_ = 0;
};

// Text from a file, fit for a one-line message: control characters replaced,
// cut to `max` characters.
std::string printable(const std::string& s, std::size_t max = 120);

std::string dtype_name(c10::ScalarType t);
std::string shape_text(const std::vector<std::int64_t>& shape);

}  // namespace seedrl
