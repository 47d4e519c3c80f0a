#include "seedrl/learner/r2d2/replay_snapshot.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "seedrl/io/crc32c.h"
#include "seedrl/io/input_file.h"

namespace seedrl::r2d2 {

namespace {

constexpr char kMagic[8] = {'S', 'E', 'E', 'D', 'R', 'L', 'R', 'P'};
constexpr std::uint32_t kByteOrderMark = 0x01020304u;
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kMaxRank = 8;
constexpr std::size_t kChunkBytes = 8u << 20;  // records copied per lock, written per write()

struct Header {
  std::int64_t length = 0, action_width = 0, policy_size = 0, core_size = 0;
  std::uint32_t obs_dtype = 0;
  std::vector<std::int64_t> obs_shape;
  std::int64_t capacity = 0;
  ReplayCursor cursor;
  double priority_exponent = 0;
  std::int64_t learner_steps = 0;
  std::uint64_t record_bytes = 0;
};

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

// The header's bytes, its CRC32C last.
std::string encode(const Header& h) {
  std::string out(kMagic, sizeof(kMagic));
  put(out, kByteOrderMark);
  put(out, kVersion);
  put(out, h.length);
  put(out, h.action_width);
  put(out, h.policy_size);
  put(out, h.core_size);
  put(out, h.obs_dtype);
  put(out, static_cast<std::uint32_t>(h.obs_shape.size()));
  for (const auto d : h.obs_shape) put(out, d);
  put(out, h.capacity);
  put(out, h.cursor.size);
  put(out, h.cursor.next);
  put(out, h.cursor.inserted);
  put(out, h.cursor.sampled);
  put(out, h.cursor.max_priority);
  put(out, h.priority_exponent);
  put(out, h.learner_steps);
  put(out, h.record_bytes);
  put(out, crc32c(out.data(), out.size()));
  return out;
}

constexpr std::size_t kMaxHeaderBytes = 8 + 4 * 4 + 8 * 4 + 8 * kMaxRank + 8 * 10 + 4;

// Reads fields off the front of the header; false once past its end.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t n) : data_(data), n_(n) {}
  template <class T>
  bool get(T& v) {
    if (pos_ + sizeof(T) > n_) return false;
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  std::size_t pos() const { return pos_; }

 private:
  const std::uint8_t* data_;
  std::size_t n_, pos_ = 0;
};

Header header_of(const Replay& replay, std::int64_t learner_steps) {
  const UnrollLayout& l = replay.layout();
  Header h;
  h.length = l.length;
  h.action_width = l.action_width;
  h.policy_size = l.policy_size;
  h.core_size = l.core_size;
  h.obs_dtype = static_cast<std::uint32_t>(l.observation.dtype);
  h.obs_shape = l.observation.shape;
  h.capacity = replay.config().capacity;
  h.priority_exponent = replay.config().priority_exponent;
  h.learner_steps = learner_steps;
  h.record_bytes = replay.record_bytes();
  return h;
}

std::string shape_text(std::uint32_t dtype, const std::vector<std::int64_t>& shape) {
  std::string s = dtype <= static_cast<std::uint32_t>(DType::kUInt8) ? dtype_name(static_cast<DType>(dtype)) : "dtype?";
  s += "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// What in the saved geometry differs from this run's; empty if nothing.
std::string geometry_mismatch(const Header& saved, const Header& run) {
  auto differs = [](const char* what, std::int64_t was, std::int64_t now, const char* flag) {
    return std::string(what) + " " + std::to_string(was) + ", this run's " + std::to_string(now) + " (" + flag + ")";
  };
  if (saved.obs_dtype != run.obs_dtype || saved.obs_shape != run.obs_shape)
    return "observations are " + shape_text(saved.obs_dtype, saved.obs_shape) + ", this run's " +
           shape_text(run.obs_dtype, run.obs_shape) + " (--env)";
  if (saved.length != run.length)
    return differs("sequences of", saved.length, run.length,
                   "R2D2: --burn-in + --unroll-length + 1 steps; SAC: --n-step + 1");
  if (saved.action_width != run.action_width || saved.policy_size != run.policy_size)
    return differs("policy records of", saved.policy_size, run.policy_size, "--env's actions + 1");
  if (saved.core_size != run.core_size) return differs("LSTM state of", saved.core_size, run.core_size, "--lstm-size");
  if (saved.capacity != run.capacity) return differs("capacity", saved.capacity, run.capacity, "--replay-capacity");
  if (saved.record_bytes != run.record_bytes)
    return differs("records of", static_cast<std::int64_t>(saved.record_bytes),
                   static_cast<std::int64_t>(run.record_bytes), "bytes");
  return "";
}

// An open file descriptor, closed on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void write_all(int fd, const void* data, std::size_t n, const std::string& path) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw ReplaySnapshotError("cannot write replay snapshot " + path + ": " + std::strerror(errno));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// False at the end of the file before `n` bytes.
bool read_all(int fd, void* data, std::size_t n, const std::string& path) {
  auto* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw ReplaySnapshotError("cannot read replay snapshot " + path + ": " + std::strerror(errno));
    }
    if (r == 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

std::int64_t records_per_chunk(std::size_t record_bytes) {
  return static_cast<std::int64_t>(std::max<std::size_t>(1, kChunkBytes / record_bytes));
}

void write_file(const Replay& replay, const std::string& tmp, const Header& h, std::uint64_t& bytes) {
  Fd f;
  f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (f.fd < 0) throw ReplaySnapshotError("cannot create replay snapshot " + tmp + ": " + std::strerror(errno));
  const std::string head = encode(h);
  write_all(f.fd, head.data(), head.size(), tmp);
  const std::int64_t per_chunk = records_per_chunk(h.record_bytes);
  std::vector<std::uint8_t> buf(
      static_cast<std::size_t>(std::min(per_chunk, std::max<std::int64_t>(1, h.cursor.size))) * h.record_bytes);
  std::uint32_t crc = 0;
  for (std::int64_t first = 0; first < h.cursor.size; first += per_chunk) {
    const std::int64_t n = std::min(per_chunk, h.cursor.size - first);
    const std::size_t len = static_cast<std::size_t>(n) * h.record_bytes;
    replay.copy_records(first, n, buf.data());
    crc = crc32c(buf.data(), len, crc);
    write_all(f.fd, buf.data(), len, tmp);
  }
  write_all(f.fd, &crc, sizeof(crc), tmp);
  if (::fsync(f.fd) != 0)
    throw ReplaySnapshotError("cannot fsync replay snapshot " + tmp + ": " + std::strerror(errno));
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) throw ReplaySnapshotError("cannot close replay snapshot " + tmp + ": " + std::strerror(errno));
  bytes = head.size() + static_cast<std::uint64_t>(h.cursor.size) * h.record_bytes + sizeof(crc);
}

// Opens `path` and reads and checks its header against `replay`'s.
Header open_and_check(const std::string& path, const Replay& replay, Fd& f, std::uint64_t& file_bytes,
                      std::size_t& header_bytes) {
  const std::string where = "replay snapshot " + path + ": ";
  try {
    f.fd = open_regular_file(path, "cannot open replay snapshot");
  } catch (const std::invalid_argument& e) {
    throw ReplaySnapshotError(e.what());
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw ReplaySnapshotError(where + std::strerror(errno));
  file_bytes = static_cast<std::uint64_t>(st.st_size);
  std::vector<std::uint8_t> buf(static_cast<std::size_t>(std::min<std::uint64_t>(file_bytes, kMaxHeaderBytes)));
  if (!read_all(f.fd, buf.data(), buf.size(), path)) throw ReplaySnapshotError(where + "shorter than its size");
  Reader r(buf.data(), buf.size());
  char magic[8] = {};
  std::uint32_t mark = 0, version = 0, rank = 0;
  for (char& c : magic) r.get(c);
  if (buf.size() < sizeof(magic) || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0)
    throw ReplaySnapshotError(where + "not a seedrl replay snapshot");
  if (!r.get(mark) || !r.get(version)) throw ReplaySnapshotError(where + "truncated in its header");
  if (mark != kByteOrderMark) throw ReplaySnapshotError(where + "written on a machine of another byte order");
  if (version != kVersion)
    throw ReplaySnapshotError(where + "format version " + std::to_string(version) + ", this seedrl reads " +
                              std::to_string(kVersion));
  Header h;
  bool ok = r.get(h.length) && r.get(h.action_width) && r.get(h.policy_size) && r.get(h.core_size) &&
            r.get(h.obs_dtype) && r.get(rank);
  if (ok && rank > kMaxRank)
    throw ReplaySnapshotError(where + "damaged header (observation rank " + std::to_string(rank) + ")");
  h.obs_shape.resize(ok ? rank : 0);
  for (auto& d : h.obs_shape) ok = ok && r.get(d);
  ok = ok && r.get(h.capacity) && r.get(h.cursor.size) && r.get(h.cursor.next) && r.get(h.cursor.inserted) &&
       r.get(h.cursor.sampled) && r.get(h.cursor.max_priority) && r.get(h.priority_exponent) &&
       r.get(h.learner_steps) && r.get(h.record_bytes);
  const std::size_t covered = r.pos();
  std::uint32_t crc = 0;
  if (!ok || !r.get(crc)) throw ReplaySnapshotError(where + "truncated in its header");
  if (crc != crc32c(buf.data(), covered)) throw ReplaySnapshotError(where + "damaged header (checksum mismatch)");
  header_bytes = r.pos();
  if (const std::string d = geometry_mismatch(h, header_of(replay, 0)); !d.empty())
    throw ReplaySnapshotError(where + "made for another replay: " + d);
  if (h.cursor.size < 0 || h.cursor.size > h.capacity)
    throw ReplaySnapshotError(where + "damaged header (" + std::to_string(h.cursor.size) + " sequences)");
  const std::uint64_t expected =
      header_bytes + static_cast<std::uint64_t>(h.cursor.size) * h.record_bytes + sizeof(std::uint32_t);
  if (file_bytes < expected)
    throw ReplaySnapshotError(where + "truncated (" + std::to_string(file_bytes) + " of " + std::to_string(expected) +
                              " bytes)");
  if (file_bytes > expected)
    throw ReplaySnapshotError(where + std::to_string(file_bytes) + " bytes, " + std::to_string(expected) +
                              " expected (trailing data)");
  if (::lseek(f.fd, static_cast<off_t>(header_bytes), SEEK_SET) < 0)
    throw ReplaySnapshotError("cannot seek in replay snapshot " + path + ": " + std::strerror(errno));
  return h;
}

}  // namespace

ReplaySnapshotInfo save_replay_snapshot(const Replay& replay, const std::string& path, std::int64_t learner_steps) {
  Header h = header_of(replay, learner_steps);
  h.cursor = replay.cursor();
  const std::string tmp = path + ".tmp";
  ReplaySnapshotInfo info{h.cursor.size, learner_steps, 0};
  try {
    write_file(replay, tmp, h, info.bytes);
  } catch (...) {
    ::unlink(tmp.c_str());  // a full disk leaves no partial file behind
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw ReplaySnapshotError("cannot rename replay snapshot " + tmp + " to " + path + ": " + why);
  }
  const auto dir = std::filesystem::path(path).parent_path();
  Fd d;
  d.fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd >= 0) ::fsync(d.fd);
  return info;
}

ReplaySnapshotInfo read_replay_snapshot_info(const std::string& path, const Replay& replay) {
  Fd f;
  std::uint64_t bytes = 0;
  std::size_t header_bytes = 0;
  const Header h = open_and_check(path, replay, f, bytes, header_bytes);
  return {h.cursor.size, h.learner_steps, bytes};
}

ReplaySnapshotInfo load_replay_snapshot(Replay& replay, const std::string& path) {
  const std::string where = "replay snapshot " + path + ": ";
  if (replay.size() != 0) throw std::logic_error("load_replay_snapshot: the replay is not empty");
  Fd f;
  std::uint64_t bytes = 0;
  std::size_t header_bytes = 0;
  const Header h = open_and_check(path, replay, f, bytes, header_bytes);
  const std::int64_t per_chunk = records_per_chunk(h.record_bytes);
  std::vector<std::uint8_t> buf(
      static_cast<std::size_t>(std::min(per_chunk, std::max<std::int64_t>(1, h.cursor.size))) * h.record_bytes);
  std::vector<double> priorities(static_cast<std::size_t>(h.cursor.size));
  std::uint32_t crc = 0;
  for (std::int64_t first = 0; first < h.cursor.size; first += per_chunk) {
    const std::int64_t n = std::min(per_chunk, h.cursor.size - first);
    const std::size_t len = static_cast<std::size_t>(n) * h.record_bytes;
    if (!read_all(f.fd, buf.data(), len, path)) throw ReplaySnapshotError(where + "truncated while reading");
    crc = crc32c(buf.data(), len, crc);
    replay.load_records(first, n, buf.data(), priorities.data() + first);
  }
  std::uint32_t stored = 0;
  if (!read_all(f.fd, &stored, sizeof(stored), path)) throw ReplaySnapshotError(where + "truncated while reading");
  if (stored != crc) throw ReplaySnapshotError(where + "damaged sequences (checksum mismatch)");
  try {
    replay.restore(h.cursor, priorities);
  } catch (const std::invalid_argument& e) {
    throw ReplaySnapshotError(where + "damaged: " + e.what());
  }
  return {h.cursor.size, h.learner_steps, bytes};
}

}  // namespace seedrl::r2d2
