// football:<scenario> refuses bad input with one line naming the scenario,
// flag or path at fault, before any engine starts (the engine ends the
// process on a missing data file).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "seedrl/env/football/data_check.h"
#include "seedrl/env/registry.h"

using namespace seedrl;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::string& name, const EnvOptions& o) {
  try {
    EnvRegistry::builtin().make(name, o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// A data folder of links to the installed one's files, but for `skip`.
fs::path linked_data(const fs::path& where, const std::string& skip) {
  const football::EnginePaths installed = football::engine_paths("", "");
  int n = 0;
  const char* const* files = football::required_data_files(&n);
  for (int i = 0; i < n; ++i) {
    if (files[i] == skip) continue;
    const fs::path link = where / files[i];
    fs::create_directories(link.parent_path());
    fs::create_symlink(fs::path(installed.data_dir) / files[i], link);
  }
  return where;
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / name) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("football bad input: one line naming what is wrong", "[football][engine]") {
  EnvOptions o;
  const std::string ok = "football:academy_empty_goal_close";

  SECTION("an unknown scenario lists the real ones") {
    const std::string e = error_of("football:academy_empty_goal_far", o);
    CHECK(e.find("football:academy_empty_goal_far: no such scenario") != std::string::npos);
    CHECK(e.find("academy_empty_goal_close") != std::string::npos);
    CHECK(e.find('\n') == std::string::npos);
  }
  SECTION("unknown observation and reward names name their flag") {
    o.football_obs = "pixels";
    CHECK(error_of(ok, o).find("--football-obs") != std::string::npos);
    o.football_obs = "smm";
    o.football_rewards = "checkpoints";
    CHECK(error_of(ok, o).find("--football-rewards") != std::string::npos);
  }
  SECTION("sticky actions do not apply") {
    o.sticky_action_prob = 0.25;
    CHECK(error_of(ok, o).find("--sticky-action-prob") != std::string::npos);
  }
  SECTION("a missing data folder") {
    o.football_data_dir = "/nonexistent/football-data";
    const std::string e = error_of(ok, o);
    CHECK(e.find("/nonexistent/football-data does not exist") != std::string::npos);
    CHECK(e.find("--football-data-dir") != std::string::npos);
  }
  SECTION("a data folder missing one file the engine needs names that file") {
    TempDir dir("seedrl-football-incomplete-" + std::to_string(::getpid()));
    const std::string skip = "media/objects/balls/ball.bmp";
    o.football_data_dir = linked_data(dir.path, skip).string();
    const std::string e = error_of(ok, o);
    CHECK(e.find("incomplete") != std::string::npos);
    CHECK(e.find(skip) != std::string::npos);
  }
  SECTION("a truncated or garbled data file is named before an engine crashes on it") {
    TempDir dir("seedrl-football-damaged-" + std::to_string(::getpid()));
    const std::string damaged = "media/objects/balls/ball.bmp";
    o.football_data_dir = linked_data(dir.path, damaged).string();
    std::ifstream in(fs::path(football::engine_paths("", "").data_dir) / damaged, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() > 100);
    const auto write = [&](const std::string& content) {
      std::ofstream(dir.path / damaged, std::ios::binary | std::ios::trunc) << content;
    };
    write(bytes.substr(0, bytes.size() / 2));
    std::string e = error_of(ok, o);
    CHECK_THAT(e, Catch::Contains("is damaged: " + damaged + " is " + std::to_string(bytes.size() / 2) + " bytes") &&
                      Catch::Contains("--football-data-dir"));
    // The same size, one byte changed.
    bytes[bytes.size() / 2] ^= 0x5a;
    write(bytes);
    e = error_of(ok, o);
    CHECK_THAT(e, Catch::Contains("is damaged: " + damaged + " differs from the file this build was made with"));
    bytes[bytes.size() / 2] ^= 0x5a;
    write(bytes);
    CHECK(error_of(ok, o).empty());
  }
  SECTION("the complete linked folder works (so the check above is not vacuous)") {
    TempDir dir("seedrl-football-complete-" + std::to_string(::getpid()));
    o.football_data_dir = linked_data(dir.path, "").string();
    CHECK(error_of(ok, o).empty());
  }
  SECTION("a missing font, and a file that is not one") {
    o.football_font = "/nonexistent/font.ttf";
    CHECK(error_of(ok, o).find("cannot read the font /nonexistent/font.ttf") != std::string::npos);
    TempDir dir("seedrl-football-font-" + std::to_string(::getpid()));
    const fs::path fake = dir.path / "font.ttf";
    std::ofstream(fake) << "not a font at all";
    o.football_font = fake.string();
    CHECK(error_of(ok, o).find("is not a TrueType font") != std::string::npos);
  }
}
