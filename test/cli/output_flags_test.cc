// Every file a command writes by the user's naming (export -o, eval and play
// --record, report -o, bench --json) is checked before the command starts
// work: a FIFO, a device or a directory there, or one of the command's own
// inputs (its checkpoint, a file of its run), is refused in one line and
// left as it was. The writers rename a temporary file over the path: as root,
// `--record /dev/null` used to replace the machine's /dev/null.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cartpole_checkpoint.h"
#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/train_config.h"

namespace fs = std::filesystem;
using namespace seedrl::test;

namespace {

std::string fifo_in(const std::string& dir) {
  const std::string path = dir + "/fifo";
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path;
}

// A link to /dev/null: should a command write there after all, it replaces
// the link, never the device.
std::string null_link_in(const std::string& dir) {
  const std::string path = dir + "/null";
  fs::create_symlink("/dev/null", path);
  return path;
}

}  // namespace

TEST_CASE("export -o onto its own checkpoint, however spelled, is refused and leaves it as it was", "[cli][output]") {
  const std::string dir = temp_dir("output_export");
  const std::string ck = cartpole_checkpoint(dir);
  const std::string bytes = read_file(ck);
  REQUIRE(!bytes.empty());
  const std::string same = " is the same file as --checkpoint " + ck;
  check_one_line_error({"export", "--checkpoint", ck, "-o", ck}, "-o: " + ck + same);
  const std::string spelled = dir + "/../" + fs::path(dir).filename().string() + "/./checkpoint.pt";
  check_one_line_error({"export", "--checkpoint", ck, "-o", spelled}, "-o: " + spelled + same);
  fs::create_symlink(ck, dir + "/link.pt");
  check_one_line_error({"export", "--checkpoint", ck, "-o", dir + "/link.pt"}, "-o: " + dir + "/link.pt" + same);
  // The run's other files are kept too: exporting best.pt over checkpoint.pt
  // would end the run's --resume.
  fs::copy_file(ck, dir + "/best.pt");
  check_one_line_error({"export", "--checkpoint", dir + "/best.pt", "-o", ck},
                       "-o: " + ck + " is the same file as the run file " + ck);
  CHECK(read_file(ck) == bytes);
  CHECK(read_file(dir + "/best.pt") == bytes);
  CHECK(fs::is_symlink(dir + "/link.pt"));

  check_one_line_error({"export", "--checkpoint", ck, "-o", dir + "/"}, "-o: " + dir + "/ is a directory");
  const std::string fifo = fifo_in(dir);
  check_one_line_error({"export", "--checkpoint", ck, "-o", fifo}, "-o: " + fifo + " is a FIFO");
  CHECK(fs::is_fifo(fifo));

  // Any other file is written as before.
  const RunResult r = run_seedrl({"export", "--checkpoint", ck, "-o", dir + "/weights.pt"});
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(fs::is_regular_file(dir + "/weights.pt"));
  CHECK(read_file(ck) == bytes);
}

TEST_CASE("eval and play --record onto a FIFO, a device or their checkpoint are refused before they write",
          "[cli][output]") {
  const std::string dir = temp_dir("output_record");
  const std::string ck = cartpole_checkpoint(dir);
  const std::string bytes = read_file(ck);
  const std::string fifo = fifo_in(dir);
  const std::string null = null_link_in(dir);
  check_one_line_error({"eval", "--checkpoint", ck, "--episodes", "1", "--record", fifo},
                       "--record: " + fifo + " is a FIFO, not a file to write");
  check_one_line_error({"eval", "--checkpoint", ck, "--episodes", "1", "--record", null},
                       "--record: " + null + " is a device, not a file to write");
  check_one_line_error({"eval", "--checkpoint", ck, "--episodes", "1", "--record", ck},
                       "--record: " + ck + " is the same file as --checkpoint " + ck);
  check_one_line_error({"play", "--policy", "checkpoint:" + ck, "--episodes", "1", "--record", ck},
                       "--record: " + ck + " is the same file as --policy " + ck);
  check_one_line_error({"play", "--env", "cartpole", "--episodes", "1", "--record", fifo},
                       "--record: " + fifo + " is a FIFO");
  check_one_line_error({"play", "--env", "cartpole", "--episodes", "1", "--record", null},
                       "--record: " + null + " is a device");
  CHECK(read_file(ck) == bytes);
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_symlink(null));
  CHECK(fs::is_character_file("/dev/null"));
  // The check writes nothing (the recorder's probe would leave FILE.tmpPID).
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  CHECK(files == 3);
}

TEST_CASE("report -o and bench --json refuse a FIFO, a directory and a run's own file", "[cli][output]") {
  const std::string dir = temp_dir("output_report");
  const std::string run = dir + "/run";
  fs::create_directory(run);
  const std::string metrics = "{\"frames\": 0}\n";
  std::ofstream(run + "/metrics.jsonl") << metrics;
  std::ofstream(run + "/summary.json") << "{}\n";
  check_one_line_error({"report", run, "-o", run + "/metrics.jsonl"},
                       "-o: " + run + "/metrics.jsonl is the same file as the run file " + run + "/metrics.jsonl");
  check_one_line_error({"report", run, "-o", run + "/../run/summary.json"}, "is the same file as the run file");
  std::ofstream(dir + "/bench.json") << "{}\n";
  check_one_line_error({"report", run, "--bench", dir + "/bench.json", "-o", dir + "/bench.json"},
                       "-o: " + dir + "/bench.json is the same file as --bench " + dir + "/bench.json");
  CHECK(read_file(run + "/metrics.jsonl") == metrics);
  CHECK(read_file(run + "/summary.json") == "{}\n");
  const std::string fifo = fifo_in(dir);
  check_one_line_error({"report", run, "-o", fifo}, "-o: " + fifo + " is a FIFO");
  check_one_line_error({"report", run, "-o", null_link_in(dir)}, "is a device");
  // Refused at once: opening the FIFO to write would wait for a reader.
  check_one_line_error({"bench", "--env", "cartpole", "--seconds", "0.1", "--json", fifo},
                       "--json: " + fifo + " is a FIFO");
  check_one_line_error({"bench", "--env", "cartpole", "--seconds", "0.1", "--json", dir},
                       "--json: " + dir + " is a directory");
  check_one_line_error({"bench", "--env", "cartpole", "--seconds", "0.1", "--json", dir + "/no/b.json"},
                       "--json: cannot write " + dir + "/no/b.json");
  CHECK(fs::is_fifo(fifo));
}
