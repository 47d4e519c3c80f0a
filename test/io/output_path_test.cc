// A file a user names for a command to write is checked before any work: a
// device, a FIFO or a directory there, the command's own input however
// spelled, or a missing directory are refused in one line naming the flag.
#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../util/refusal.h"
#include "seedrl/io/output_path.h"

namespace fs = std::filesystem;
using seedrl::check_output_path;
using seedrl::KeptFile;

using seedrl::test::refusal;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/seedrl_output_path_XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

}  // namespace

TEST_CASE("a new file, or a regular file that is no input, may be written", "[io][output_path]") {
  TempDir dir;
  const std::string ck = dir / "checkpoint.pt";
  std::ofstream(ck) << "weights";
  const std::vector<KeptFile> kept{{ck, "--checkpoint"}};
  CHECK_NOTHROW(check_output_path("-o", dir / "weights.pt", kept));
  std::ofstream(dir / "old.pt") << "earlier weights";
  CHECK_NOTHROW(check_output_path("-o", dir / "old.pt", kept));
  // A kept file that does not exist is no file the output could be.
  CHECK_NOTHROW(check_output_path("-o", dir / "old.pt", {{dir / "none.pt", "--bench"}}));
  // A bare name goes in the current directory, which exists.
  CHECK_NOTHROW(check_output_path("--json", "seedrl-output-path-test.json", {}));
}

TEST_CASE("the command's own input is refused however the path spells it", "[io][output_path]") {
  TempDir dir;
  fs::create_directory(dir.path / "run");
  const std::string ck = dir / "run/checkpoint.pt";
  std::ofstream(ck) << "weights";
  const std::vector<KeptFile> kept{{dir / "run/best.pt", "the run file"}, {ck, "--checkpoint"}};
  CHECK(refusal([&] { check_output_path("-o", ck, kept); }) ==
        "-o: " + ck + " is the same file as --checkpoint " + ck + "; the output would replace it");
  const std::string spelled = dir / "run/../run/./checkpoint.pt";
  CHECK(refusal([&] { check_output_path("-o", spelled, kept); }) ==
        "-o: " + spelled + " is the same file as --checkpoint " + ck + "; the output would replace it");
  fs::create_symlink(ck, dir.path / "link.pt");
  CHECK_THAT(refusal([&] { check_output_path("--record", dir / "link.pt", kept); }),
             Catch::StartsWith("--record: " + (dir / "link.pt") + " is the same file as --checkpoint " + ck));
  fs::create_hard_link(ck, dir.path / "hard.pt");
  CHECK_THAT(refusal([&] { check_output_path("-o", dir / "hard.pt", kept); }),
             Catch::Contains("is the same file as --checkpoint " + ck));
}

TEST_CASE("a directory, a device, a FIFO or a socket is refused, symlinks followed", "[io][output_path]") {
  TempDir dir;
  CHECK(refusal([&] { check_output_path("-o", dir.path.string(), {}); }) ==
        "-o: " + dir.path.string() + " is a directory, not a file to write");
  CHECK(refusal([&] { check_output_path("-o", dir.path.string() + "/", {}); }) ==
        "-o: " + dir.path.string() + "/ is a directory, not a file to write");
  // Only looked at: the check writes nothing, so /dev/null cannot come to harm.
  REQUIRE(fs::is_character_file("/dev/null"));
  CHECK(refusal([&] { check_output_path("--record", "/dev/null", {}); }) ==
        "--record: /dev/null is a device, not a file to write");
  fs::create_symlink("/dev/null", dir.path / "null");
  CHECK(refusal([&] { check_output_path("--record", dir / "null", {}); }) ==
        "--record: " + (dir / "null") + " is a device, not a file to write");
  const std::string fifo = dir / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal([&] { check_output_path("--json", fifo, {}); }) ==
        "--json: " + fifo + " is a FIFO, not a file to write");
  CHECK(fs::is_fifo(fifo));
  const std::string socket_path = dir / "socket";
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  REQUIRE(socket_path.size() < sizeof(addr.sun_path));
  std::strcpy(addr.sun_path, socket_path.c_str());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0);
  CHECK(refusal([&] { check_output_path("-o", socket_path, {}); }) ==
        "-o: " + socket_path + " is a socket, not a file to write");
  ::close(fd);
}

TEST_CASE("a file in a directory that does not exist is refused", "[io][output_path]") {
  TempDir dir;
  CHECK(refusal([&] { check_output_path("-o", "", {}); }) == "-o: empty file name");
  CHECK(refusal([&] { check_output_path("-o", dir / "no/such/w.pt", {}); }) ==
        "-o: cannot write " + (dir / "no/such/w.pt") + ": no directory " + (dir / "no/such"));
  std::ofstream(dir / "file") << "x";
  CHECK(refusal([&] { check_output_path("-o", dir / "file/w.pt", {}); }) ==
        "-o: cannot write " + (dir / "file/w.pt") + ": " + (dir / "file") + " is not a directory");
  CHECK(refusal([&] { check_output_path("-o", dir / "new/", {}); }) ==
        "-o: " + (dir / "new/") + " names a directory (it ends in /), not a file");
}
