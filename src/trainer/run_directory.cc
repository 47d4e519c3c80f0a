#include "seedrl/trainer/run_directory.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <spdlog/spdlog.h>

#include "seedrl/io/checkpoint.h"
#include "seedrl/io/file_kind.h"
#include "seedrl/io/output_file.h"

namespace seedrl {

namespace fs = std::filesystem;

namespace {

// A run's own files: its checkpoints (last and best), replay snapshot, metrics, summary and TensorBoard events.
bool belongs_to_run(const fs::path& file) {
  const std::string name = file.filename().string();
  return name == "checkpoint.pt" || name == "best.pt" || name == "replay.bin" || name == "metrics.jsonl" ||
         name == "metrics.csv" || name == "summary.json" || name == "config.toml" || name == "report.html" ||
         name.rfind("events.out.tfevents.", 0) == 0;
}

std::string timestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return buf;
}

// Creates and removes a file in `dir`: a directory can exist and refuse
// writes (a read-only mount, /proc/self, another user's directory), which
// would otherwise surface only at the first checkpoint or metrics line.
void check_writable(const std::string& dir) {
  const std::string probe = (fs::path(dir) / (".seedrl-write-check-" + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int error = errno;
    throw std::invalid_argument("--logdir: cannot write in " + dir + " (" + std::strerror(error) + ")");
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

// A run file's name taken by a directory, FIFO or device would fail the run
// at its first checkpoint or metrics line, or hang it on a FIFO: refused
// before the run starts (or an earlier run is moved aside). The TensorBoard
// file is named afresh each run, so a name taken earlier is no obstacle, and
// a report that cannot be written is a warning, not the run's end.
void check_run_file_names(const std::string& logdir) {
  std::error_code ec;
  for (fs::directory_iterator it(logdir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    if (!belongs_to_run(path) || name.rfind("events.out.tfevents.", 0) == 0 || name == "report.html") continue;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) continue;  // a dangling link: the run writes a file there
    // A device is let be: a link to /dev/null discards that output on purpose.
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) continue;
    if (const char* kind = special_file_kind(st.st_mode))
      throw std::invalid_argument("--logdir: " + path.string() + " is " + kind + "; a run keeps its " +
                                  path.filename().string() + " there, so remove it or choose another --logdir");
  }
}

}  // namespace

void write_run_settings(const std::string& logdir, const std::string& toml) {
  OutputFile out((fs::path(logdir) / "config.toml").string(), OutputFile::Mode::kTruncate);
  out.write(toml);
  out.close();
}

std::vector<std::string> run_files(const std::string& logdir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(logdir, ec), end; !ec && it != end; it.increment(ec))
    if (belongs_to_run(it->path())) files.push_back(it->path().string());
  return files;
}

std::vector<KeptFile> checkpoint_and_run_files(const std::string& checkpoint, const std::string& flag) {
  std::vector<KeptFile> kept{{checkpoint, flag}};
  const fs::path dir = fs::path(checkpoint).parent_path();
  for (std::string& file : run_files(dir.empty() ? "." : dir.string()))
    kept.push_back({std::move(file), "the run file"});
  return kept;
}

void create_run_directory(const std::string& logdir) {
  std::error_code ec;
  fs::create_directories(logdir, ec);
  if (ec || !fs::is_directory(logdir))
    throw std::invalid_argument("--logdir: cannot create directory " + logdir + (ec ? " (" + ec.message() + ")" : ""));
  check_writable(logdir);
}

std::string prepare_run_directory(const std::string& logdir, bool resume) {
  create_run_directory(logdir);
  std::error_code ec;
  check_run_file_names(logdir);
  if (resume || !fs::exists(checkpoint_path(logdir))) return "";
  fs::path aside = fs::path(logdir) / ("replaced-" + timestamp());
  for (int n = 2; fs::exists(aside); ++n)
    aside = fs::path(logdir) / ("replaced-" + timestamp() + "-" + std::to_string(n));
  fs::create_directory(aside, ec);
  if (ec)
    throw std::invalid_argument("--logdir: cannot set the earlier run aside in " + aside.string() + " (" +
                                ec.message() + ")");
  for (const auto& entry : fs::directory_iterator(logdir)) {
    if (!entry.is_regular_file() || !belongs_to_run(entry.path())) continue;
    fs::rename(entry.path(), aside / entry.path().filename(), ec);
    if (ec)
      throw std::invalid_argument("--logdir: cannot move " + entry.path().string() + " aside (" + ec.message() + ")");
  }
  spdlog::warn("--logdir {} held an earlier run (pass --resume to continue one); it was moved to {}", logdir,
               aside.string());
  return aside.string();
}

}  // namespace seedrl
