// `seedrl train --actors 0 --remote-actors` fed by `seedrl actor` processes
// over loopback: the learner learns CartPole from remote steps alone, and an
// actor process killed mid-run costs nothing but its own steps.
#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include "../cli/run_binary.h"
#include "../util/free_port.h"

using namespace seedrl::test;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("remote actor processes alone train cartpole and survive a killed peer", "[net][cli][slow]") {
  const std::string dir = temp_dir("remote_train");
  const std::string addr = "127.0.0.1:" + std::to_string(free_port());
  const std::vector<std::string> actor{"actor", "--connect",        addr, "--env", "cartpole", "--actors",
                                       "8",     "--envs-per-actor", "2"};
  // The actors start beside the learner and retry until it listens. The
  // third process is killed once all 16 actor threads (8 of each process)
  // are connected and stepping, not after some seconds a loaded machine may
  // not have got that far in.
  bool sent = false;
  const auto runs = run_seedrl_group(
      {{"train", "--env", "cartpole", "--actors", "0", "--remote-actors", addr, "--max-frames", "800000",
        "--inference-batch", "16", "--logdir", dir, "--log-interval-s", "1", "--checkpoint-every-s", "0", "--seed",
        "3"},
       actor,
       actor},
      [&](const std::vector<std::string>& out, const std::vector<bool>&) -> std::pair<int, int> {
        if (sent || count_of(out[0], "connected: 2 envs") < 16 || out[0].find("frames ") == std::string::npos)
          return {-1, 0};
        sent = true;
        return {2, SIGKILL};
      },
      300);
  const RunResult &learner = runs[0], &kept = runs[1], &killed = runs[2];
  INFO(learner.output);
  INFO(kept.output);
  REQUIRE(learner.status == 0);
  CHECK(killed.status == 128 + SIGKILL);
  CHECK(kept.status == 0);  // told that training finished
  CHECK_THAT(kept.output, Catch::Contains("training finished"));
  // The killed process's 8 connections were noticed as lost (not ended by
  // the learner) and their slots freed; the run went on to its end.
  CHECK(count_of(learner.output, "disconnected: ") == 8);
  CHECK(count_of(learner.output, "gone: 2 env slots freed") == 16);
  const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s["frames"].get<double>() >= 800000);
  // A uniform random policy averages about 22.
  CHECK(s["episode_return_mean"].get<double>() >= 40);
}

TEST_CASE("r2d2 learns from remote actors: their sequences fill replay beside local and eval envs",
          "[net][cli][r2d2][slow]") {
  const std::string dir = temp_dir("remote_r2d2");
  const std::string addr = "127.0.0.1:" + std::to_string(free_port());
  RunResult learner, actor;
  std::thread l([&] {
    learner = run_seedrl({"train",    "--algo",
                          "r2d2",     "--env",
                          "cartpole", "--actors",
                          "0",        "--remote-actors",
                          addr,       "--max-remote-envs",
                          "16",       "--eval-envs",
                          "2",        "--unroll-length",
                          "10",       "--burn-in",
                          "4",        "--sequence-overlap",
                          "5",        "--batch-size",
                          "8",        "--min-replay",
                          "40",       "--replay-capacity",
                          "2000",     "--hidden",
                          "16",       "--max-frames",
                          "20000",    "--logdir",
                          dir,        "--log-interval-s",
                          "1",        "--checkpoint-every-s",
                          "0",        "--seed",
                          "4"},
                         180);
  });
  std::thread a([&] {
    actor =
        run_seedrl({"actor", "--connect", addr, "--env", "cartpole", "--actors", "4", "--envs-per-actor", "2"}, 180);
  });
  l.join();
  a.join();
  INFO(learner.output);
  INFO(actor.output);
  REQUIRE(learner.status == 0);
  CHECK(actor.status == 0);
  CHECK_THAT(actor.output, Catch::Contains("training finished"));
  const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  // Every counted frame is a remote one (no local actors): they reached the
  // episode statistics, the sequences and the learner.
  CHECK(s["frames"].get<double>() >= 20000);
  CHECK(s["episodes"].get<double>() > 0);
  CHECK(s["replay_inserted"].get<double>() >= 20000 / 5.0 * 0.8);  // one sequence per 5 steps and env
  CHECK(s["learner_steps"].get<double>() > 0);
  CHECK(s["eval_episodes"].get<double>() > 0);
}

TEST_CASE("a learner stopped and resumed takes its remote actors back", "[net][cli][slow]") {
  const std::string dir = temp_dir("remote_resume");
  const std::string addr = "127.0.0.1:" + std::to_string(free_port());
  const std::vector<std::string> learner_args = {
      "train", "--env",    "cartpole", "--actors",         "0", "--remote-actors",      addr, "--inference-batch",
      "8",     "--logdir", dir,        "--log-interval-s", "1", "--checkpoint-every-s", "0"};
  RunResult first, second, actor;
  // One actor process for both learners: it outlives the first and finds the second by itself.
  std::thread a([&] {
    actor =
        run_seedrl({"actor", "--connect", addr, "--env", "cartpole", "--actors", "2", "--envs-per-actor", "4"}, 240);
  });
  auto args = learner_args;
  args.insert(args.end(), {"--max-frames", "100000000"});
  // Stopped once the remote envs have ended episodes (not after a time, which a loaded machine may
  // not have connected them in): it checkpoints and exits 130.
  static const std::regex stepped("episodes [1-9]");
  first = run_seedrl_and_signal_when(
      args, [](const std::string& out, int) { return std::regex_search(out, stepped); }, SIGTERM, 300);
  double frames_at_stop = 0;
  if (first.status == 130)
    frames_at_stop = nlohmann::json::parse(read_file(dir + "/summary.json"))["frames"].get<double>();
  args = learner_args;
  const double target = frames_at_stop + 50000;
  args.insert(args.end(), {"--resume", "--max-frames", std::to_string(static_cast<long long>(target))});
  // Without a first run's checkpoint the second is refused at once, and the actor gives up on its own.
  second = run_seedrl(args, 300);
  a.join();
  INFO(first.output);
  REQUIRE(first.status == 130);
  REQUIRE(frames_at_stop > 0);
  INFO(first.output);
  INFO(second.output);
  INFO(actor.output);
  REQUIRE(second.status == 0);
  CHECK_THAT(second.output, Catch::Contains("resumed from"));
  CHECK_THAT(second.output, Catch::Contains("connected: 4 envs"));
  const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s["frames"].get<double>() >= target);  // the remote actors came back and stepped on
  CHECK(actor.status == 0);                    // told that training finished
  CHECK_THAT(actor.output, Catch::Contains("retrying"));
}

TEST_CASE("train refuses remote-actor flag combinations that cannot work", "[net][cli]") {
  auto r = run_seedrl({"train", "--actors", "0", "--max-frames", "100"}, 60);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--actors") && Catch::Contains("--remote-actors"));
  r = run_seedrl({"train", "--remote-actors", "0.0.0.0:7999", "--max-frames", "100"}, 60);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--token-file"));
  r = run_seedrl({"train", "--remote-actors", "127.0.0.1:notaport", "--max-frames", "100"}, 60);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--remote-actors"));
  r = run_seedrl({"actor", "--connect", "nowhere", "--env", "cartpole"}, 60);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--connect"));
}

TEST_CASE("seedrl actor gives up on an unreachable learner after --connect-timeout-s", "[net][cli]") {
  // Nothing listens on a port just released; the actor retries with backoff,
  // then gives up with one error line naming the flag, and exits 1.
  const std::string addr = "127.0.0.1:" + std::to_string(free_port());
  const RunResult r =
      run_seedrl({"actor", "--connect", addr, "--env", "cartpole", "--actors", "2", "--connect-timeout-s", "0.5"});
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("no working connection to the learner at " + addr) &&
                           Catch::Contains("giving up (--connect-timeout-s)"));
  // One error for the run, not one per actor thread.
  std::size_t errors = 0;
  for (std::size_t at = r.output.find("[error]"); at != std::string::npos; at = r.output.find("[error]", at + 1))
    ++errors;
  CHECK(errors == 1);
}

TEST_CASE("seedrl actor --config takes the env settings from the learner's config", "[net][cli]") {
  // The learner's file holds its env settings beside keys only the learner
  // has; an actor given the same file steps the same MDP and is let in, one
  // given only --env steps episodes of another length and is refused.
  const std::string dir = temp_dir("actor_config");
  const std::string file = dir + "/learner.toml";
  std::ofstream(file)
      << "env = \"cartpole\"\ntime-limit = 200\nmax-frames = 30000\nactors = 0\nlearning-rate = 0.001\n";
  const auto no_signal = [](const std::vector<std::string>&, const std::vector<bool>&) -> std::pair<int, int> {
    return {-1, 0};
  };
  std::string addr = "127.0.0.1:" + std::to_string(free_port());
  auto runs = run_seedrl_group(
      {{"train", "--config", file, "--remote-actors", addr, "--logdir", dir + "/run", "--checkpoint-every-s", "0"},
       {"actor", "--connect", addr, "--config", file, "--actors", "2", "--envs-per-actor", "4"}},
      no_signal, 300);
  INFO(runs[0].output);
  INFO(runs[1].output);
  REQUIRE(runs[0].status == 0);
  CHECK(runs[1].status == 0);
  CHECK_THAT(runs[1].output, Catch::Contains("training finished"));
  const auto s = nlohmann::json::parse(read_file(dir + "/run/summary.json"));
  CHECK(s["frames"].get<double>() >= 30000);

  // Without the file: refused, naming the setting. The learner, which would
  // wait for actors for ever, is stopped with Ctrl-C once the actor has gone.
  addr = "127.0.0.1:" + std::to_string(free_port());
  runs = run_seedrl_group(
      {{"train", "--config", file, "--remote-actors", addr, "--logdir", dir + "/run2", "--checkpoint-every-s", "0"},
       {"actor", "--connect", addr, "--env", "cartpole", "--connect-timeout-s", "300"}},
      [sent = false](const std::vector<std::string>&, const std::vector<bool>& exited) mutable -> std::pair<int, int> {
        if (sent || !exited[1]) return {-1, 0};
        sent = true;
        return {0, SIGINT};
      },
      300);
  INFO(runs[1].output);
  CHECK(runs[1].status == 1);
  CHECK_THAT(runs[1].output, Catch::Contains("env: --time-limit 0 differs from the learner's 200"));

  // The file's errors name it; a key the actor does not take is not checked.
  std::ofstream(dir + "/bad.toml") << "env = \"cartpol\"\nno-such-key = 1\n";
  RunResult r = run_seedrl({"actor", "--connect", addr, "--config", dir + "/bad.toml"}, 60);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains(dir + "/bad.toml:1") && Catch::Contains("cartpol"));
  r = run_seedrl({"actor", "--connect", addr, "--config", dir + "/missing.toml"}, 60);
  CHECK(r.status == 2);
  CHECK_THAT(r.output, Catch::Contains("--config") && Catch::Contains("missing.toml"));
}
