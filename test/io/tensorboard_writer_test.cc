#include <unistd.h>
#include <catch2/catch.hpp>

#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "seedrl/io/crc32c.h"
#include "seedrl/io/tensorboard_writer.h"

using namespace seedrl;
namespace fs = std::filesystem;

namespace {

// Bit-at-a-time CRC-32C straight from the definition, independent of the
// table-driven implementation under test.
std::uint32_t reference_crc32c(const std::string& bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
  }
  return ~c;
}

std::uint32_t reference_mask(std::uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

std::uint64_t read_le(const std::string& s, std::size_t pos, int bytes) {
  REQUIRE(pos + bytes <= s.size());
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(static_cast<unsigned char>(s[pos + i])) << (8 * i);
  return v;
}

// Minimal protobuf reader: a message is a list of (field, wire type, payload).
struct Field {
  std::uint32_t number = 0;
  std::uint32_t wire_type = 0;
  std::uint64_t scalar = 0;  // varint, fixed64 or fixed32 bits
  std::string bytes;         // length-delimited payload
};

std::uint64_t read_varint(const std::string& s, std::size_t& pos) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    REQUIRE(pos < s.size());
    const auto b = static_cast<unsigned char>(s[pos++]);
    v |= std::uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
  FAIL("varint longer than 10 bytes");
  return 0;
}

std::vector<Field> parse_message(const std::string& s) {
  std::vector<Field> fields;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::uint64_t key = read_varint(s, pos);
    Field f;
    f.number = static_cast<std::uint32_t>(key >> 3);
    f.wire_type = static_cast<std::uint32_t>(key & 7);
    switch (f.wire_type) {
      case 0:
        f.scalar = read_varint(s, pos);
        break;
      case 1:
        f.scalar = read_le(s, pos, 8);
        pos += 8;
        break;
      case 5:
        f.scalar = read_le(s, pos, 4);
        pos += 4;
        break;
      case 2: {
        const std::uint64_t n = read_varint(s, pos);
        REQUIRE(pos + n <= s.size());
        f.bytes = s.substr(pos, n);
        pos += n;
        break;
      }
      default:
        FAIL("unexpected wire type " << f.wire_type);
    }
    fields.push_back(f);
  }
  REQUIRE(pos == s.size());
  return fields;
}

const Field* find(const std::vector<Field>& fields, std::uint32_t number) {
  const Field* found = nullptr;
  for (const auto& f : fields) {
    if (f.number == number) {
      REQUIRE(found == nullptr);  // every field we read is singular
      found = &f;
    }
  }
  return found;
}

// Splits a TFRecord file into payloads, checking both masked CRCs.
std::vector<std::string> read_records(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> records;
  std::size_t pos = 0;
  while (pos < data.size()) {
    const std::uint64_t len = read_le(data, pos, 8);
    CHECK(read_le(data, pos + 8, 4) == reference_mask(reference_crc32c(data.substr(pos, 8))));
    REQUIRE(pos + 12 + len + 4 <= data.size());
    std::string payload = data.substr(pos + 12, len);
    CHECK(read_le(data, pos + 12 + len, 4) == reference_mask(reference_crc32c(payload)));
    records.push_back(std::move(payload));
    pos += 12 + len + 4;
  }
  return records;
}

struct DecodedEvent {
  double wall_time = 0;
  std::int64_t step = 0;
  std::string file_version;
  bool has_summary = false;
  std::string tag;
  float simple_value = 0;
};

// Decodes an Event per tensorboard/compat/proto/event.proto and summary.proto.
DecodedEvent decode_event(const std::string& payload) {
  DecodedEvent e;
  const auto fields = parse_message(payload);
  if (const Field* f = find(fields, 1)) {
    REQUIRE(f->wire_type == 1);
    e.wall_time = std::bit_cast<double>(f->scalar);
  }
  if (const Field* f = find(fields, 2)) {
    REQUIRE(f->wire_type == 0);
    e.step = static_cast<std::int64_t>(f->scalar);
  }
  if (const Field* f = find(fields, 3)) {
    REQUIRE(f->wire_type == 2);
    e.file_version = f->bytes;
  }
  if (const Field* f = find(fields, 5)) {
    REQUIRE(f->wire_type == 2);
    e.has_summary = true;
    const auto summary = parse_message(f->bytes);
    REQUIRE(summary.size() == 1);
    REQUIRE(summary[0].number == 1);
    REQUIRE(summary[0].wire_type == 2);
    const auto value = parse_message(summary[0].bytes);
    const Field* tag = find(value, 1);
    const Field* simple = find(value, 2);
    REQUIRE(tag);
    REQUIRE(tag->wire_type == 2);
    REQUIRE(simple);
    REQUIRE(simple->wire_type == 5);
    e.tag = tag->bytes;
    e.simple_value = std::bit_cast<float>(static_cast<std::uint32_t>(simple->scalar));
  }
  return e;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("seedrl_tb_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

TEST_CASE("crc32c matches published check values", "[io][crc32c]") {
  const std::string check = "123456789";
  CHECK(crc32c(check.data(), check.size()) == 0xE3069283u);
  CHECK(crc32c(nullptr, 0) == 0u);

  // RFC 3720 appendix B.4.
  std::string zeros(32, '\0'), ones(32, '\xFF'), inc(32, '\0'), dec(32, '\0');
  for (int i = 0; i < 32; ++i) {
    inc[i] = static_cast<char>(i);
    dec[i] = static_cast<char>(31 - i);
  }
  CHECK(crc32c(zeros.data(), 32) == 0x8A9136AAu);
  CHECK(crc32c(ones.data(), 32) == 0x62A8AB43u);
  CHECK(crc32c(inc.data(), 32) == 0x46DD794Eu);
  CHECK(crc32c(dec.data(), 32) == 0x113FDB5Cu);

  // Continuing from a prefix's CRC equals the CRC of the whole.
  CHECK(crc32c(check.data() + 4, 5, crc32c(check.data(), 4)) == 0xE3069283u);
  CHECK(reference_crc32c(check) == 0xE3069283u);

  CHECK(mask_crc32c(0) == 0xa282ead8u);
  CHECK(mask_crc32c(0xE3069283u) == reference_mask(0xE3069283u));
}

TEST_CASE("tensorboard writer encodes a scalar event byte for byte", "[io][tensorboard]") {
  const fs::path dir = fresh_dir("bytes");
  std::string path;
  {
    TensorBoardWriter w(dir.string());
    w.add_scalar("a", 1.0, 1, 0.0);
    path = w.path();
  }
  const auto records = read_records(path);
  REQUIRE(records.size() == 2);
  // Event{wall_time: 0.0 (field 1, fixed64), step: 1 (field 2, varint),
  //       summary (field 5) {value (field 1) {tag (1): "a", simple_value (2, fixed32): 1.0f}}}
  const unsigned char expected[] = {0x09, 0,    0,    0,    0,   0, 0, 0, 0,  // wall_time
                                    0x10, 0x01,                               // step
                                    0x2A, 0x0A,                               // summary, 10 bytes
                                    0x0A, 0x08,                               // value, 8 bytes
                                    0x0A, 0x01, 'a',                          // tag
                                    0x15, 0x00, 0x00, 0x80, 0x3F};            // 1.0f
  CHECK(records[1] == std::string(reinterpret_cast<const char*>(expected), sizeof(expected)));
  fs::remove_all(dir);
}

TEST_CASE("tensorboard writer output decodes back to the logged scalars", "[io][tensorboard]") {
  const fs::path dir = fresh_dir("roundtrip");
  const double before = now_seconds();
  struct Row {
    std::string tag;
    double value;
    std::int64_t step;
    double wall;
  };
  const std::vector<Row> rows = {
      {"loss/policy", 0.123456789, 0, 1700000000.25},         {"loss/value", -3.5e7, 1, 1700000001.5},
      {"episode_return", 500.0, 127, 1700000002.0},           {"eps", 1e-30, 128, 1700000003.0},
      {"big_step", 2.0, std::int64_t(1) << 40, 1700000004.0}, {"negative_step", 7.0, -5, 1700000005.0},
      {std::string(300, 'x'), 42.0, 300, 1700000006.0},  // tag length needs a 2-byte varint
  };
  std::string path;
  {
    TensorBoardWriter w(dir.string());
    for (const auto& r : rows) w.add_scalar(r.tag, r.value, r.step, r.wall);
    w.flush();
    path = w.path();
  }
  const double after = now_seconds();

  const std::string name = fs::path(path).filename().string();
  const std::string prefix = "events.out.tfevents.";
  REQUIRE(name.rfind(prefix, 0) == 0);
  const std::size_t dot = name.find('.', prefix.size());
  REQUIRE(dot != std::string::npos);
  const std::string secs = name.substr(prefix.size(), dot - prefix.size());
  REQUIRE(!secs.empty());
  CHECK(secs.find_first_not_of("0123456789") == std::string::npos);
  CHECK(std::stod(secs) >= std::floor(before));
  CHECK(std::stod(secs) <= after);
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  CHECK(name.substr(dot + 1) == std::string(host));
  CHECK(fs::path(path).parent_path() == dir);

  const auto records = read_records(path);
  REQUIRE(records.size() == rows.size() + 1);
  const DecodedEvent first = decode_event(records[0]);
  CHECK(first.file_version == "brain.Event:2");
  CHECK_FALSE(first.has_summary);
  CHECK(first.wall_time >= before - 1e-3);
  CHECK(first.wall_time <= after + 1e-3);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DecodedEvent e = decode_event(records[i + 1]);
    CHECK(e.file_version.empty());
    REQUIRE(e.has_summary);
    CHECK(e.tag == rows[i].tag);
    CHECK(e.simple_value == static_cast<float>(rows[i].value));
    CHECK(e.step == rows[i].step);
    CHECK(e.wall_time == rows[i].wall);
  }
  fs::remove_all(dir);
}

TEST_CASE("tensorboard writer reports an unusable logdir by path", "[io][tensorboard]") {
  const fs::path dir = fresh_dir("error");
  fs::create_directories(dir);
  const fs::path blocker = dir / "not_a_directory";
  std::ofstream(blocker) << "x";
  const std::string logdir = (blocker / "run").string();
  try {
    TensorBoardWriter w(logdir);
    FAIL("expected std::runtime_error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find(logdir) != std::string::npos);
  }
  fs::remove_all(dir);
}
