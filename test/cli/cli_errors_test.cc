// Bad input gets one line naming the flag or file at fault and exit status 2.
#include <netdb.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "one_line_error.h"
#include "seedrl/util/cpu_affinity.h"

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
  check_error({"train", "--screen-size", "200"}, "--screen-size");
  check_error({"train", "--football-shot-hold-prob-final", "1.5"}, "--football-shot-hold-prob-final");
  check_error({"train", "--env", "cartpole", "--football-shot-hold-prob-final", "0"},
              "--football-shot-hold-prob-final");
  // A GPU listed twice is refused, not silently deduplicated.
  check_error({"train", "--algo", "r2d2", "--inference-devices", "cuda:0,cuda:0"}, "--inference-devices");
  // CUDA graphs without a CUDA inference device would silently do nothing.
  check_error({"train", "--cuda-graphs", "all", "--device", "cpu"}, "--cuda-graphs all");
  check_error({"bench", "--cuda-graphs", "all", "--inference-devices", "cpu,cpu"}, "--cuda-graphs all");
  check_error({"train", "--cuda-graphs", "yes"}, "--cuda-graphs");
  check_error({"bench", "--learner-devices", "gpu"}, "--learner-devices");
  check_error({"train", "--device", "tpu"}, "--device");
  check_error({"train", "--learner-cpus", "pin"}, "--learner-cpus");
  // A learner thread with as many torch threads as there are CPUs leaves none.
  check_error({"train", "--learner-cpus", "reserve", "--torch-threads", std::to_string(seedrl::thread_cpus().size())},
              "--learner-cpus reserve");
  check_error({"train", "--config", "/nonexistent/run.toml"}, "/nonexistent/run.toml");
  check_error({"eval", "--checkpoint", "/nonexistent/checkpoint.pt"}, "/nonexistent/checkpoint.pt");
  check_error({"bogus-command"}, "bogus-command");
}

TEST_CASE("the old flag name --learner-cores still works, and errors name it as typed", "[cli]") {
  check_error({"train", "--learner-cores", "pin"}, "--learner-cores");
  // The value reaches the learner's CPU plan, whose refusal names the flag as typed.
  const RunResult r = run_seedrl(
      {"train", "--learner-cores", "reserve", "--torch-threads", std::to_string(seedrl::thread_cpus().size())});
  INFO(r.output);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("error: --learner-cores reserve:"));
  CHECK_THAT(r.output, Catch::Contains("--learner-cores is deprecated: it is now --learner-cpus"));
  CHECK_THAT(r.output, !Catch::Contains("--learner-cpus reserve"));
  // --help lists only the current name.
  const RunResult help = run_seedrl({"train", "--help"});
  CHECK(help.status == 0);
  CHECK_THAT(help.output, Catch::Contains("--learner-cpus") && !Catch::Contains("--learner-cores"));
}

TEST_CASE("train refuses a model that cannot fit in memory, naming --hidden, before building it", "[cli][memory]") {
  // 4.3e9 parameters: weights, gradients and Adam state alone take over 60 GiB
  // of host memory. On CPU devices: the estimate is checked against host
  // memory only (a GPU machine would place the model on its GPU).
  const std::string dir = temp_dir("cli_hidden_huge");
  for (const char* env : {"minatar:breakout", "cartpole"})
    check_error({"train", "--env", env, "--model", "mlp", "--hidden", "65536", "65536", "--max-frames", "1000",
                 "--actors", "2", "--batch-size", "2", "--device", "cpu", "--logdir", dir},
                "--hidden: the model (4.3");
  std::string widths;
  for (int i = 0; i < 200; ++i) widths += "8, ";
  std::ofstream(dir + "/wide.toml") << "hidden = [" << widths << "]\n";
  check_error({"train", "--config", dir + "/wide.toml", "--max-frames", "1000", "--logdir", dir},
              "--hidden: 200 layers; the MLP may have at most 64");
}

TEST_CASE("train refuses --torch-threads beyond the CPUs it may use", "[cli]") {
  check_error({"train", "--torch-threads", "1024", "--max-frames", "1000", "--actors", "2", "--batch-size", "2",
               "--logdir", temp_dir("cli_torch_threads")},
              "--torch-threads: 1024 is more than the");
}

TEST_CASE("train refuses a --logdir it cannot write in, in one line", "[cli]") {
  // Tests run as root, whom file modes do not stop: /proc/self is a
  // directory no one can create files in, and a path under a regular file
  // cannot be a directory.
  const std::vector<std::string> quick{"--max-frames", "1000", "--actors", "2", "--batch-size", "2"};
  auto args = [&](const std::string& logdir) {
    std::vector<std::string> a{"train", "--logdir", logdir};
    a.insert(a.end(), quick.begin(), quick.end());
    return a;
  };
  check_error(args("/proc/self"), "--logdir: cannot write in /proc/self");
  const std::string dir = temp_dir("cli_logdir_file");
  std::ofstream(dir + "/file") << "x";
  check_error(args(dir + "/file/run"), "--logdir: cannot create directory " + dir + "/file/run");
  check_error(args(dir + "/file"), "--logdir: cannot create directory " + dir + "/file");
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
  check_error({"actor", "--connect", "nosuchhost.invalid:29599"},
              "--connect: cannot resolve host 'nosuchhost.invalid'");
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

TEST_CASE("a mistyped flag or command or env name gets a did-you-mean in one line", "[cli]") {
  const RunResult flag = check_one_line_error({"train", "--max-frame", "1000"}, "unknown flag --max-frame for train");
  CHECK_THAT(flag.output, Catch::Contains("did you mean --max-frames?"));
  const RunResult eq = check_one_line_error({"bench", "--secnds=1"}, "unknown flag --secnds for bench");
  CHECK_THAT(eq.output, Catch::Contains("did you mean --seconds?"));
  const RunResult command = check_one_line_error({"trian"}, "unknown command 'trian'");
  CHECK_THAT(command.output, Catch::Contains("did you mean 'train'?"));
  const RunResult env = check_one_line_error({"play", "--env", "cartpol"}, "unknown environment 'cartpol'");
  CHECK_THAT(env.output, Catch::Contains("did you mean 'cartpole'?"));
}

TEST_CASE("play and train take Gymnasium ids and report seedrl's name", "[cli]") {
  const RunResult play = run_seedrl({"play", "--env", "CartPole-v1", "--episodes", "1", "--json"});
  INFO(play.output);
  CHECK(play.status == 0);
  const std::string dir = temp_dir("cli_gym_name");
  const RunResult train = run_seedrl({"train", "--env", "MinAtar/Breakout-v1", "--max-frames", "400", "--actors", "2",
                                      "--batch-size", "2", "--logdir", dir});
  INFO(train.output);
  REQUIRE(train.status == 0);
  CHECK_THAT(train.output, Catch::Contains("env minatar:breakout"));
}
