#include "seedrl/io/tensorboard_writer.h"

#include <bit>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "seedrl/io/crc32c.h"
#include "seedrl/util/host_name.h"

namespace seedrl {
namespace {

// Protobuf wire types.
constexpr std::uint32_t kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

// Field numbers from tensorboard/compat/proto/{event,summary}.proto.
constexpr std::uint32_t kEventWallTime = 1;     // double
constexpr std::uint32_t kEventStep = 2;         // int64
constexpr std::uint32_t kEventFileVersion = 3;  // string (oneof what)
constexpr std::uint32_t kEventSummary = 5;      // Summary (oneof what)
constexpr std::uint32_t kSummaryValue = 1;      // repeated Summary.Value
constexpr std::uint32_t kValueTag = 1;          // string
constexpr std::uint32_t kValueSimpleValue = 2;  // float (oneof value)

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void put_key(std::string& out, std::uint32_t field, std::uint32_t wire_type) {
  put_varint(out, (static_cast<std::uint64_t>(field) << 3) | wire_type);
}

void put_bytes(std::string& out, std::uint32_t field, const std::string& bytes) {
  put_key(out, field, kLengthDelimited);
  put_varint(out, bytes.size());
  out.append(bytes);
}

// Event header fields shared by every record; the oneof `what` is appended by
// the caller.
void start_event(std::string& out, double wall_time, std::int64_t step) {
  out.clear();
  put_key(out, kEventWallTime, kFixed64);
  put_le(out, std::bit_cast<std::uint64_t>(wall_time), 8);
  put_key(out, kEventStep, kVarint);
  put_varint(out, static_cast<std::uint64_t>(step));  // int64: two's complement, 10 bytes if < 0
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

TensorBoardWriter::TensorBoardWriter(const std::string& logdir) {
  std::error_code ec;
  std::filesystem::create_directories(logdir, ec);
  if (ec) {
    throw std::runtime_error("TensorBoardWriter: cannot create log directory '" + logdir + "': " + ec.message());
  }
  const double now = now_seconds();
  path_ = (std::filesystem::path(logdir) /
           ("events.out.tfevents." + std::to_string(static_cast<std::int64_t>(now)) + "." + host_name()))
              .string();
  out_ = std::make_unique<OutputFile>(path_, OutputFile::Mode::kTruncate);

  std::lock_guard<std::mutex> lock(mu_);
  start_event(event_, now, 0);
  put_bytes(event_, kEventFileVersion, "brain.Event:2");
  write_record(event_);
  flush_locked();
}

TensorBoardWriter::~TensorBoardWriter() {
  std::lock_guard<std::mutex> lock(mu_);
  try {
    flush_locked();
  } catch (const std::exception&) {
    // No throw from a destructor: close() is the call that reports this.
  }
}

void TensorBoardWriter::add_scalar(const std::string& tag, double value, std::int64_t step, double wall_time_seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  value_.clear();
  put_bytes(value_, kValueTag, tag);
  put_key(value_, kValueSimpleValue, kFixed32);
  put_le(value_, std::bit_cast<std::uint32_t>(static_cast<float>(value)), 4);

  summary_.clear();
  put_bytes(summary_, kSummaryValue, value_);

  start_event(event_, wall_time_seconds, step);
  put_bytes(event_, kEventSummary, summary_);
  write_record(event_);
}

void TensorBoardWriter::flush() {
  std::lock_guard<std::mutex> lock(mu_);
  flush_locked();
}

void TensorBoardWriter::close() {
  std::lock_guard<std::mutex> lock(mu_);
  flush_locked();
  out_->sync();
  out_->close();
}

void TensorBoardWriter::flush_locked() {
  if (pending_.empty()) return;
  // Dropped before the write: after a failure the file is not written again.
  const std::string records = std::move(pending_);
  pending_.clear();
  out_->write(records);
}

// TFRecord framing: uint64 length, masked crc32c(length bytes), payload,
// masked crc32c(payload); all integers little-endian.
void TensorBoardWriter::write_record(const std::string& payload) {
  char header[12];
  const std::uint64_t len = payload.size();
  for (int i = 0; i < 8; ++i) header[i] = static_cast<char>((len >> (8 * i)) & 0xFF);
  const std::uint32_t len_crc = mask_crc32c(crc32c(header, 8));
  for (int i = 0; i < 4; ++i) header[8 + i] = static_cast<char>((len_crc >> (8 * i)) & 0xFF);
  const std::uint32_t data_crc = mask_crc32c(crc32c(payload.data(), payload.size()));
  char footer[4];
  for (int i = 0; i < 4; ++i) footer[i] = static_cast<char>((data_crc >> (8 * i)) & 0xFF);

  pending_.append(header, sizeof(header));
  pending_.append(payload);
  pending_.append(footer, sizeof(footer));
}

}  // namespace seedrl
