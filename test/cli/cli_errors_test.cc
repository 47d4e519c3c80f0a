// Bad input gets one line naming the flag or file at fault and exit status 2.
#include <netdb.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "one_line_error.h"

using namespace seedrl::test;

namespace {
void check_error(const std::vector<std::string>& args, const std::string& names) { check_one_line_error(args, names); }
}  // namespace

TEST_CASE("train rejects bad values with one line naming the flag", "[cli]") {
  check_error({"train", "--env", "cartpol"}, "--env");
  check_error({"train", "--env", "cartpol"}, "cartpole");  // lists the valid names
  check_error({"train", "--actors", "0"}, "--actors");
  check_error({"train", "--learning-rate", "-0.1"}, "--learning-rate");
  check_error({"train", "--batch-size", "abc"}, "--batch-size");
  check_error({"train", "--optimizer", "sgd"}, "--optimizer");
  // A GPU listed twice is refused, not silently deduplicated.
  check_error({"train", "--algo", "r2d2", "--inference-devices", "cuda:0,cuda:0"}, "--inference-devices");
  // CUDA graphs without a CUDA inference device would silently do nothing.
  check_error({"train", "--cuda-graphs", "--device", "cpu"}, "--cuda-graphs");
  check_error({"bench", "--cuda-graphs", "--inference-devices", "cpu,cpu"}, "--cuda-graphs");
  check_error({"bench", "--learner-devices", "gpu"}, "--learner-devices");
  check_error({"train", "--device", "tpu"}, "--device");
  check_error({"train", "--learner-cores", "pin"}, "--learner-cores");
  // 1024 learner CPUs: more than any CI machine has.
  check_error({"train", "--learner-cores", "reserve", "--torch-threads", "1024"}, "--learner-cores reserve");
  check_error({"train", "--config", "/nonexistent/run.toml"}, "/nonexistent/run.toml");
  check_error({"eval", "--checkpoint", "/nonexistent/checkpoint.pt"}, "/nonexistent/checkpoint.pt");
  check_error({"bogus-command"}, "bogus-command");
}

TEST_CASE("a config file's bad value is reported like the flag", "[cli]") {
  const std::string dir = temp_dir("cli_config");
  std::ofstream(dir + "/bad.toml") << "actors = 0\n";
  check_error({"train", "--config", dir + "/bad.toml"}, "--actors");
}

TEST_CASE("eval and play name the flag when the checkpoint is a directory", "[cli]") {
  const std::string dir = temp_dir("cli_checkpoint_dir");
  check_error({"eval", "--checkpoint", dir}, "--checkpoint: File is actually a directory: " + dir);
  check_error({"play", "--policy", "checkpoint:" + dir}, "--policy: checkpoint:" + dir + " is a directory");
}

TEST_CASE("actor refuses a learner host that does not exist instead of retrying forever", "[cli]") {
  // Only where the resolver answers "no such name" (.invalid never exists);
  // without a DNS server it says "try again", which the actor retries.
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo("nosuchhost.invalid", "29599", &hints, &found);
  if (found != nullptr) freeaddrinfo(found);
  if (rc != EAI_NONAME && rc != EAI_FAIL) {
    WARN("the resolver here says '" << gai_strerror(rc) << "' for nosuchhost.invalid; not tested");
    return;
  }
  check_error({"actor", "--connect", "nosuchhost.invalid:29599"}, "--connect: cannot resolve host 'nosuchhost.invalid'");
}

TEST_CASE("help output (--help) shows every command's defaults", "[cli]") {
  RunResult r = run_seedrl({"train", "--help"});
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Catch::Contains("--max-frames") && Catch::Contains("3000000"));
  CHECK_THAT(r.output, Catch::Contains("--inference-timeout-us"));
  RunResult e = run_seedrl({"eval", "--help"});
  CHECK(e.status == 0);
  CHECK_THAT(e.output, Catch::Contains("--episodes"));
}
