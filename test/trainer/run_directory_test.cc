// A fresh run in a --logdir that holds an earlier run moves that run's files
// aside instead of overwriting its checkpoint; --resume leaves them in place.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "../cli/run_binary.h"
#include "../util/refusal.h"
#include "seedrl/trainer/run_directory.h"

using namespace seedrl;
using namespace seedrl::test;
namespace fs = std::filesystem;

namespace {
void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
}  // namespace

TEST_CASE("prepare_run_directory sets an earlier run aside unless resuming", "[trainer][logdir]") {
  const fs::path dir = temp_dir("run_directory");
  SECTION("an empty or missing directory is only created") {
    CHECK(prepare_run_directory((dir / "new/sub").string(), false).empty());
    CHECK(fs::is_directory(dir / "new/sub"));
  }
  SECTION("a directory without a checkpoint is left alone") {
    write(dir / "metrics.jsonl", "{}\n");
    CHECK(prepare_run_directory(dir.string(), false).empty());
    CHECK(fs::exists(dir / "metrics.jsonl"));
  }
  SECTION("an earlier run") {
    write(dir / "checkpoint.pt", "weights");
    write(dir / "metrics.jsonl", "{}\n");
    write(dir / "summary.json", "{}");
    write(dir / "events.out.tfevents.1.host", "tb");
    write(dir / "notes.txt", "mine");
    SECTION("is moved aside by a fresh run, files intact") {
      const fs::path aside = prepare_run_directory(dir.string(), false);
      REQUIRE(aside.parent_path() == dir);
      CHECK(aside.filename().string().rfind("replaced-", 0) == 0);
      CHECK(read_file((aside / "checkpoint.pt").string()) == "weights");
      for (const char* f : {"metrics.jsonl", "summary.json", "events.out.tfevents.1.host"}) {
        CHECK(fs::exists(aside / f));
        CHECK_FALSE(fs::exists(dir / f));
      }
      CHECK_FALSE(fs::exists(dir / "checkpoint.pt"));
      CHECK(fs::exists(dir / "notes.txt"));  // not the run's: left where it was
      // A second fresh run the same second gets a directory of its own.
      write(dir / "checkpoint.pt", "second");
      const fs::path again = prepare_run_directory(dir.string(), false);
      CHECK(again != aside);
      CHECK(read_file((again / "checkpoint.pt").string()) == "second");
    }
    SECTION("is kept in place by --resume") {
      CHECK(prepare_run_directory(dir.string(), true).empty());
      CHECK(read_file((dir / "checkpoint.pt").string()) == "weights");
    }
  }
  SECTION("a run file's name taken by a directory or FIFO is refused before anything moves") {
    write(dir / "checkpoint.pt", "weights");
    const char* taken = GENERATE("summary.json", "metrics.csv", "checkpoint.pt", "replay.bin");
    if (std::string(taken) == "checkpoint.pt") {
      fs::remove(dir / "checkpoint.pt");
      write(dir / "metrics.jsonl", "{}\n");
    }
    fs::create_directory(dir / taken);
    for (const bool resume : {false, true}) {
      const std::string message = refusal([&] { prepare_run_directory(dir.string(), resume); });
      CHECK_THAT(message, Catch::StartsWith("--logdir: " + (dir / taken).string() + " is a directory"));
    }
    CHECK(fs::is_directory(dir / taken));
    CHECK((std::string(taken) == "checkpoint.pt" || read_file((dir / "checkpoint.pt").string()) == "weights"));
    fs::remove(dir / taken);
    REQUIRE(::mkfifo((dir / taken).c_str(), 0600) == 0);
    CHECK_THAT(refusal([&] { prepare_run_directory(dir.string(), false); }), Catch::Contains("is a FIFO"));
  }
  SECTION("a path that is a file is refused naming --logdir") {
    write(dir / "file", "x");
    CHECK_THROWS_WITH(prepare_run_directory((dir / "file").string(), false),
                      Catch::StartsWith("--logdir: cannot create"));
    CHECK_THROWS_WITH(prepare_run_directory((dir / "file/sub").string(), false),
                      Catch::StartsWith("--logdir: cannot create"));
  }
}
