// Files a user names are read only when they are regular files: a FIFO or a
// device must be refused at once, not block the command.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "../util/refusal.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/io/input_file.h"
#include "seedrl/net/protocol.h"

namespace fs = std::filesystem;
using seedrl::read_regular_file;

using seedrl::test::refusal;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/seedrl_input_file_XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("a regular file is read whole", "[io][input_file]") {
  TempDir dir;
  const std::string p = (dir.path / "a.toml").string();
  std::ofstream(p) << "env = \"cartpole\"\n";
  CHECK(read_regular_file(p, "--config", 1024) == "env = \"cartpole\"\n");
  const std::string why = refusal([&] { read_regular_file(p, "--config", 4); });
  CHECK(why == "--config " + p + ": is larger than 4 bytes");
}

TEST_CASE("a FIFO, a directory, a device and a symlink loop are refused without blocking", "[io][input_file]") {
  TempDir dir;
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // With no writer, a blocking open or read of the FIFO would never return.
  CHECK(refusal([&] { read_regular_file(fifo, "--config", 1024); }) ==
        "--config " + fifo + ": is a FIFO, not a regular file");
  CHECK(refusal([&] { seedrl::net::read_token_file(fifo, "--token-file"); }).find("--token-file") == 0);
  CHECK_THROWS_WITH(seedrl::read_checkpoint_header(fifo), "checkpoint " + fifo + ": is a FIFO, not a regular file");
  CHECK(refusal([&] { read_regular_file(dir.path.string(), "--config", 1024); }) ==
        "--config " + dir.path.string() + ": is a directory, not a regular file");
  CHECK(refusal([&] { read_regular_file("/dev/zero", "--config", 1024); }) ==
        "--config /dev/zero: is a device, not a regular file");
  const fs::path loop = dir.path / "loop";
  fs::create_symlink(loop, loop);
  const std::string why = refusal([&] { read_regular_file(loop.string(), "--config", 1024); });
  CHECK(why.find("--config " + loop.string() + ": ") == 0);
  CHECK(why.find('\n') == std::string::npos);
  CHECK(refusal([&] { read_regular_file("", "--config", 1024); }) == "--config \"\": empty path");
}
