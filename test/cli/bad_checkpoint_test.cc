// `seedrl eval`, `play` and `train --resume` given a damaged or crafted
// checkpoint (edited with its CRC recomputed, truncated, lying about sizes, or
// of an older seedrl): exit status 2 and one line naming the file, never a
// crash (a crafted LibTorch archive used to crash LibTorch's TorchScript
// parser) and never an empty "[error]" line.
#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../io/checkpoint_bytes.h"
#include "cartpole_checkpoint.h"
#include "one_line_error.h"
#include "run_binary.h"
#include "seedrl/env/registry.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"
#include "seedrl/model/policy_distribution.h"
#include "seedrl/trainer/train_config.h"

using namespace seedrl::test;

namespace {

// Where a file's index lies (in an older file, its archive's pickles and
// TorchScript code, after the tensor data).
std::pair<std::size_t, std::size_t> metadata(const std::string& b) {
  if (is_archive_format(b)) {
    const auto pickle = b.find("archive/data.pkl");
    return {pickle == std::string::npos ? kArchiveHeaderBytes : pickle, b.size()};
  }
  std::uint64_t index_bytes = 0;
  std::memcpy(&index_bytes, b.data() + 8, 8);
  return {kHeaderBytes, kHeaderBytes + index_bytes};
}

// Copies of `good` that no seedrl should load, each written to a file.
std::vector<std::string> refused_copies(const std::string& good_path, const std::string& dir) {
  const std::string good = file_bytes(good_path);
  std::vector<std::pair<std::string, std::string>> copies;
  copies.emplace_back("truncated", good.substr(0, good.size() / 2));
  std::string huge = good;
  const std::uint64_t big = std::uint64_t{1} << 62;
  std::memcpy(huge.data() + (is_archive_format(good) ? 8 : 16), &big, 8);
  reseal(huge);
  copies.emplace_back("huge", huge);
  if (!is_archive_format(good)) {
    auto parts = split_checkpoint(good);
    parts.index["modules"][0]["tensors"][0]["dtype"] = "float33";
    copies.emplace_back("dtype", join_checkpoint(parts));
    parts = split_checkpoint(good);
    parts.index["modules"][0]["tensors"][1]["shape"][0] = -1;
    copies.emplace_back("negative", join_checkpoint(parts));
    std::string old = "SEEDRLC1" + std::string(12, '\0') + "PK\x03\x04 a LibTorch archive";
    const std::uint64_t len = old.size() - kArchiveHeaderBytes;
    std::memcpy(old.data() + 8, &len, 8);
    reseal(old);
    copies.emplace_back("older", old);
  }
  // Bytes of the index edited, the CRC recomputed.
  const auto [begin, end] = metadata(good);
  for (int k = 0; k < 4; ++k) {
    std::string b = good;
    char& c = b[begin + (end - begin) * (2 * k + 1) / 8];
    c = c == '"' ? ']' : '"';
    reseal(b);
    copies.emplace_back("edit" + std::to_string(k), b);
  }
  std::vector<std::string> paths;
  for (const auto& [name, bytes] : copies) {
    paths.push_back(dir + "/" + name + ".pt");
    write_bytes(paths.back(), bytes);
  }
  return paths;
}

}  // namespace

TEST_CASE("eval, play and train --init-checkpoint refuse a damaged checkpoint in one line naming it",
          "[cli][checkpoint]") {
  const std::string dir = temp_dir("cli_bad_checkpoint");
  const std::string good = cartpole_checkpoint(dir);
  {
    // The copies below are refused for their damage, not for this file.
    const RunResult r = run_seedrl({"eval", "--checkpoint", good, "--episodes", "1"});
    INFO(r.output);
    REQUIRE(r.status == 0);
  }
  for (const std::string& bad : refused_copies(good, dir)) {
    check_one_line_error({"eval", "--checkpoint", bad, "--episodes", "1"}, bad);
    check_one_line_error({"play", "--policy", "checkpoint:" + bad, "--episodes", "1"}, bad);
    const RunResult r = check_one_line_error(
        {"train", "--init-checkpoint", bad, "--max-frames", "1000", "--logdir", dir + "/init"}, "--init-checkpoint: ");
    CHECK_THAT(r.output, Catch::Contains(bad));
  }
}

TEST_CASE("eval refuses a checkpoint whose run config does not fit its weights", "[cli][checkpoint]") {
  const std::string dir = temp_dir("cli_bad_checkpoint_config");
  const std::string good = cartpole_checkpoint(dir);
  auto parts = split_checkpoint(file_bytes(good));
  const std::string config = parts.index["config"];
  // "hidden":[64,64] with its comma overwritten: a 64864-wide layer of 16 GiB.
  const std::string wide = R"("hidden":[64864])";
  std::string edited = config;
  const auto at = edited.find(R"("hidden":[64,64])");
  REQUIRE(at != std::string::npos);
  edited.replace(at, wide.size(), wide);
  parts.index["config"] = edited;
  const std::string bad = dir + "/wide.pt";
  write_bytes(bad, join_checkpoint(parts));
  check_one_line_error({"eval", "--checkpoint", bad, "--episodes", "1"}, bad + " does not match its own run config");
  parts.index["config"] = "{\"env\": \"no-such-env\"}";
  write_bytes(bad, join_checkpoint(parts));
  check_one_line_error({"eval", "--checkpoint", bad, "--episodes", "1"}, bad + ": its run config");
}

TEST_CASE("train --resume refuses a damaged checkpoint in one line naming it", "[cli][checkpoint][train]") {
  const std::string dir = temp_dir("cli_bad_resume");
  const std::vector<std::string> train{"train", "--max-frames", "5000", "--actors", "4", "--batch-size",
                                       "2",     "--logdir",     dir};
  const RunResult first = run_seedrl(train);
  INFO(first.output);
  REQUIRE(first.status == 0);
  const std::string path = seedrl::checkpoint_path(dir);
  const std::string good = file_bytes(path);
  const std::string copies = temp_dir("cli_bad_resume_copies");
  std::vector<std::string> resume = train;
  resume.push_back("--resume");
  for (const std::string& bad : refused_copies(path, copies)) {
    write_bytes(path, file_bytes(bad));
    // The run's start-up lines come first; then one error line, naming the file.
    const RunResult r = run_seedrl(resume);
    INFO(r.output);
    CHECK(r.status == 2);
    const auto error_at = r.output.find("seedrl: error: checkpoint " + path);
    CHECK(error_at != std::string::npos);
    CHECK(r.output.find('\n', error_at) == r.output.size() - 1);
    CHECK(r.output.find("seedrl: error", error_at + 1) == std::string::npos);
    CHECK(r.output.find("[error]") == std::string::npos);
  }
}

TEST_CASE("eval refuses a crafted config before building its model: sizes, narrowing, empty tensors",
          "[cli][checkpoint]") {
  const std::string dir = temp_dir("cli_crafted_checkpoint");
  const std::string good = cartpole_checkpoint(dir);
  const auto with_hidden = [&](const std::string& hidden, bool empty_tensor) {
    auto parts = split_checkpoint(file_bytes(good));
    std::string config = parts.index["config"];
    const auto at = config.find(R"("hidden":[64,64])");
    REQUIRE(at != std::string::npos);
    config.replace(at, std::string(R"("hidden":[64,64])").size(), "\"hidden\":" + hidden);
    parts.index["config"] = config;
    if (empty_tensor)  // a zero-size tensor with a huge dim: no bytes, yet "widest" 500M
      for (auto& m : parts.index["modules"])
        if (m["name"] == "model")
          m["tensors"].push_back({{"bytes", 0},
                                  {"dtype", "float32"},
                                  {"name", "evil"},
                                  {"offset", parts.data.size()},
                                  {"shape", {0, 500000000}}});
    const std::string path = dir + "/crafted.pt";
    write_bytes(path, join_checkpoint(parts));
    return path;
  };
  // ~14 GB of model if built: refused first, by its parameter count.
  std::string bad = with_hidden("[500000000]", true);
  check_one_line_error({"eval", "--checkpoint", bad, "--episodes", "1"}, bad);
  // 4294967360 read as an int is 64: refused, not narrowed.
  bad = with_hidden("[4294967360,64]", false);
  const RunResult r = check_one_line_error({"eval", "--checkpoint", bad, "--episodes", "1"}, bad);
  CHECK_THAT(r.output, Catch::Contains("4294967360") && Catch::Contains("does not fit"));
}

TEST_CASE("eval, play, train --resume and --init-checkpoint refuse a checkpoint whose weights are not finite",
          "[cli][checkpoint]") {
  const std::string dir = temp_dir("cli_nan_checkpoint");
  const std::vector<std::string> train{"train", "--max-frames", "3000", "--actors", "2", "--logdir", dir};
  REQUIRE(run_seedrl(train).status == 0);
  const std::string path = seedrl::checkpoint_path(dir);
  auto parts = split_checkpoint(file_bytes(path));
  // The first float of the first model tensor becomes NaN, then infinity.
  std::size_t offset = 0;
  for (const auto& m : parts.index["modules"])
    if (m["name"] == "model") offset = m["tensors"][0]["offset"].get<std::size_t>();
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    std::memcpy(parts.data.data() + offset, &bad, sizeof bad);
    write_bytes(path, join_checkpoint(parts));
    check_one_line_error({"eval", "--checkpoint", path, "--episodes", "1"}, "non-finite weights");
    check_one_line_error({"play", "--policy", "checkpoint:" + path, "--episodes", "1"}, "non-finite weights");
    check_one_line_error({"train", "--init-checkpoint", path, "--max-frames", "1000", "--logdir", dir + "-init"},
                         "non-finite weights");
    std::vector<std::string> resume = train;
    resume[2] = "6000";
    resume.push_back("--resume");
    const RunResult r = run_seedrl(resume);
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains("non-finite weights") && Catch::Contains(path));
  }
}
