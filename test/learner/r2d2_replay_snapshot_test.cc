// R2D2's replay saved and restored (learner/r2d2/replay_snapshot.h,
// trainer/replay_checkpoint.h): a round trip keeps sequences, priorities and
// sampling; a damaged, truncated or mismatched file is refused with one line
// and leaves the replay empty; a full disk keeps the previous file; and a
// resumed `seedrl train --algo r2d2` starts with the replay it saved.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include "../cli/run_binary.h"
#include "seedrl/io/crc32c.h"
#include "seedrl/learner/r2d2/replay.h"
#include "seedrl/learner/r2d2/replay_snapshot.h"
#include "seedrl/trainer/replay_checkpoint.h"
#include "seedrl/trainer/run_directory.h"

using namespace seedrl;
using namespace seedrl::r2d2;
using seedrl::test::read_file;
using seedrl::test::run_seedrl;
using seedrl::test::RunResult;
using seedrl::test::temp_dir;

namespace {

UnrollLayout snapshot_layout(DType dtype, int length = 5, int core = 3) {
  UnrollLayout l;
  l.observation.shape = {2, 3};
  l.observation.dtype = dtype;
  l.action_width = 1;
  l.policy_size = 3;
  l.core_size = core;
  l.length = length;
  return l;
}

ReplayConfig snapshot_config(std::int64_t capacity) {
  ReplayConfig c;
  c.capacity = capacity;
  c.min_fill = 1;
  c.check_memory = false;
  c.seed = 7;
  return c;
}

// A one-sequence time-major batch whose fields all differ with `id`.
UnrollBatch snapshot_sequence(const UnrollLayout& l, int id) {
  UnrollBatch b;
  const auto dt = l.observation.dtype == DType::kUInt8 ? torch::kUInt8 : torch::kFloat32;
  b.obs = (torch::arange(l.length * 6).reshape({l.length, 1, 2, 3}) + id).remainder(251).to(dt);
  b.actions = torch::full({l.length, 1, 1}, static_cast<float>(id % 3));
  b.policy = torch::rand({l.length, 1, l.policy_size});
  b.rewards = torch::rand({l.length, 1});
  b.flags = torch::full({l.length, 1}, id % 7, torch::kUInt8);
  if (l.core_size > 0) {
    b.core_h = torch::rand({1, l.core_size});
    b.core_c = torch::rand({1, l.core_size});
  }
  b.versions = torch::full({1}, 100 + id, torch::kInt64);
  return b;
}

// `n` sequences with distinct priorities (the ring wraps when n > capacity).
void fill(Replay& r, int n) {
  for (int i = 0; i < n; ++i) REQUIRE(r.insert(snapshot_sequence(r.layout(), i), 0, 0.25 + 0.5 * (i % 5)));
}

std::vector<std::uint8_t> records(const Replay& r) {
  const auto c = r.cursor();
  std::vector<std::uint8_t> out(static_cast<std::size_t>(c.size) * r.record_bytes());
  r.copy_records(0, c.size, out.data());
  return out;
}

std::vector<char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<char>& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

// The error loading `path` into a fresh replay of `layout` and `capacity`
// gives; checks it is one line naming the file and the replay stayed empty.
std::string load_error(const std::string& path, const UnrollLayout& layout, std::int64_t capacity,
                       std::int64_t num_actions = 0) {
  ReplayConfig config = snapshot_config(capacity);
  config.num_actions = num_actions;
  Replay r(layout, config);
  std::string what;
  try {
    load_replay_snapshot(r, path);
  } catch (const ReplaySnapshotError& e) {
    what = e.what();
  }
  INFO(what);
  CHECK_THAT(what, Catch::Contains(path));
  CHECK(what.find('\n') == std::string::npos);
  CHECK(r.size() == 0);
  CHECK(r.cursor().inserted == 0);
  return what;
}

// Where the records start: the file's length less the records and the CRC.
std::size_t body_offset(const std::vector<char>& file, const Replay& r) {
  return file.size() - 4 - static_cast<std::size_t>(r.size()) * r.record_bytes();
}

void fix_body_crc(std::vector<char>& file, std::size_t body) {
  const std::uint32_t crc = crc32c(file.data() + body, file.size() - 4 - body);
  std::memcpy(file.data() + file.size() - 4, &crc, 4);
}

}  // namespace

TEST_CASE("a replay snapshot round trip keeps sequences, priorities and sampling", "[r2d2][replay][snapshot]") {
  for (const DType dtype : {DType::kFloat32, DType::kUInt8}) {
    for (const int core : {0, 3}) {
      const auto l = snapshot_layout(dtype, 5, core);
      const std::string path = temp_dir("replay_snapshot_round") + "/replay.bin";
      Replay saved(l, snapshot_config(8));
      fill(saved, 11);  // wrapped: the cursor is mid-ring
      const ReplaySnapshotInfo info = save_replay_snapshot(saved, path, 42);
      CHECK(info.sequences == 8);
      CHECK(info.learner_steps == 42);
      CHECK(info.bytes == std::filesystem::file_size(path));
      CHECK_FALSE(std::filesystem::exists(path + ".tmp"));

      Replay loaded(l, snapshot_config(8));
      const ReplaySnapshotInfo back = load_replay_snapshot(loaded, path);
      CHECK(back.sequences == 8);
      CHECK(back.learner_steps == 42);
      CHECK(loaded.size() == 8);
      CHECK(loaded.cursor().next == saved.cursor().next);
      CHECK(loaded.cursor().inserted == 11);
      CHECK(loaded.cursor().max_priority == saved.cursor().max_priority);
      CHECK(records(loaded) == records(saved));  // contents, versions and raw priorities, byte for byte
      CHECK(loaded.priority_stats().mean == saved.priority_stats().mean);

      // Same seed, same sum tree: the same draws, probabilities, weights and data.
      ReplaySample a, b;
      for (int k = 0; k < 20; ++k) {
        REQUIRE(saved.sample(4, a));
        REQUIRE(loaded.sample(4, b));
        REQUIRE(a.indices == b.indices);
        REQUIRE(a.probabilities == b.probabilities);
        REQUIRE(torch::equal(a.weights, b.weights));
        REQUIRE(torch::equal(a.batch.obs, b.batch.obs));
        REQUIRE(torch::equal(a.batch.policy, b.batch.policy));
        REQUIRE(torch::equal(a.batch.versions, b.batch.versions));
        if (core > 0) REQUIRE(torch::equal(a.batch.core_h, b.batch.core_h));
        const std::vector<double> p = {0.1 * k, 2.0, 0.5, 7.5};
        saved.update_priorities(a, p);
        loaded.update_priorities(b, p);
      }
      // Both go on inserting at the same ring position with the same priority.
      const UnrollBatch next = snapshot_sequence(l, 50);
      REQUIRE(saved.insert(next, 0));
      REQUIRE(loaded.insert(next, 0));
      CHECK(records(loaded) == records(saved));
    }
  }
}

TEST_CASE("a partly filled replay's snapshot holds only its sequences", "[r2d2][replay][snapshot]") {
  const auto l = snapshot_layout(DType::kUInt8);
  const std::string path = temp_dir("replay_snapshot_partial") + "/replay.bin";
  Replay saved(l, snapshot_config(16));
  fill(saved, 3);
  save_replay_snapshot(saved, path, 0);
  Replay loaded(l, snapshot_config(16));
  load_replay_snapshot(loaded, path);
  CHECK(loaded.size() == 3);
  CHECK(loaded.cursor().next == 3);
  CHECK(records(loaded) == records(saved));
  // And an empty one restores an empty replay.
  Replay empty(l, snapshot_config(16));
  save_replay_snapshot(empty, path, 0);
  Replay loaded_empty(l, snapshot_config(16));
  CHECK(load_replay_snapshot(loaded_empty, path).sequences == 0);
  CHECK(loaded_empty.size() == 0);
}

TEST_CASE("a restored replay keeps the learner within this run's replay ratio", "[r2d2][replay][snapshot]") {
  const auto l = snapshot_layout(DType::kFloat32);
  const std::string path = temp_dir("replay_snapshot_ratio") + "/replay.bin";
  Replay saved(l, snapshot_config(8));
  fill(saved, 8);
  ReplaySample s;
  for (int k = 0; k < 5; ++k) REQUIRE(saved.sample(2, s));  // no limiter: 10 samples
  save_replay_snapshot(saved, path, 0);
  auto limited = snapshot_config(8);
  limited.replay_ratio = 1;
  limited.min_fill = 4;
  Replay loaded(l, limited);
  load_replay_snapshot(loaded, path);
  CHECK(loaded.cursor().inserted == 8);
  CHECK(loaded.cursor().sampled == 4);  // 1 * (8 - 4): more would be samples this ratio never allowed
}

TEST_CASE("a damaged or mismatched replay snapshot is refused with one line", "[r2d2][replay][snapshot]") {
  const auto l = snapshot_layout(DType::kFloat32);
  const std::string dir = temp_dir("replay_snapshot_damaged");
  const std::string good = dir + "/good.bin", path = dir + "/replay.bin";
  Replay saved(l, snapshot_config(8));
  fill(saved, 6);
  save_replay_snapshot(saved, good, 3);
  const std::vector<char> file = bytes_of(good);
  const std::size_t body = body_offset(file, saved);

  SECTION("a flipped byte in the sequences") {
    auto f = file;
    f[body + 17] ^= 0x40;
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("checksum"));
  }
  SECTION("a flipped byte in the header") {
    auto f = file;
    f[30] ^= 0x01;
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("header"));
  }
  SECTION("a bad priority behind a correct checksum") {
    auto f = file;
    const double nan = std::nan("");
    std::memcpy(f.data() + body + 2 * saved.record_bytes() - sizeof(double), &nan, sizeof(double));
    fix_body_crc(f, body);
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("priority"));
  }
  SECTION("a negative priority behind a correct checksum") {
    auto f = file;
    const double neg = -1.0;
    std::memcpy(f.data() + body + saved.record_bytes() - sizeof(double), &neg, sizeof(double));
    fix_body_crc(f, body);
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("priority"));
  }
  SECTION("sequences no run writes, behind a correct checksum") {
    // A record: obs (30 floats), actions (5), policy (15), rewards (5), flags (5 bytes), then the LSTM state.
    const std::size_t actions_at = 30 * 4, rewards_at = actions_at + 5 * 4 + 15 * 4, flags_at = rewards_at + 5 * 4;
    const auto patched = [&](std::size_t record, std::size_t at, const void* value, std::size_t n) {
      auto f = file;
      std::memcpy(f.data() + body + record * saved.record_bytes() + at, value, n);
      fix_body_crc(f, body);
      write_bytes(path, f);
    };
    const float nan = std::nanf(""), seven = 7.f, half = 0.5f;
    patched(1, rewards_at + 8, &nan, 4);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("sequence 1 holds a non-finite reward"));
    patched(0, 4, &nan, 4);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("sequence 0 holds a non-finite observation"));
    patched(2, actions_at, &seven, 4);
    CHECK_THAT(load_error(path, l, 8, 3), Catch::Contains("sequence 2 holds an action outside 0..2"));
    patched(3, actions_at + 4, &half, 4);
    CHECK_THAT(load_error(path, l, 8, 3), Catch::Contains("sequence 3 holds an action outside 0..2"));
    const std::uint8_t unknown = 0x40;
    patched(4, flags_at + 1, &unknown, 1);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("sequence 4 holds unknown step flags"));
    // Every priority 0: nothing could ever be sampled.
    auto f = file;
    const double zero = 0.0;
    for (std::int64_t i = 1; i <= saved.size(); ++i)
      std::memcpy(f.data() + body + static_cast<std::size_t>(i) * saved.record_bytes() - sizeof(double), &zero,
                  sizeof(double));
    fix_body_crc(f, body);
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("every sequence has priority 0"));
    // The untouched file loads with the action space checked too.
    write_bytes(path, file);
    Replay r(l, [] {
      ReplayConfig c = snapshot_config(8);
      c.num_actions = 3;
      return c;
    }());
    CHECK_NOTHROW(load_replay_snapshot(r, path));
    CHECK(r.size() == 6);
  }
  SECTION("truncated in the sequences, in the header, or empty") {
    for (const std::size_t keep : {file.size() - 1, body + 10, std::size_t{20}, std::size_t{0}}) {
      write_bytes(path, std::vector<char>(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(keep)));
      const std::string what = load_error(path, l, 8);
      CHECK((what.find("truncated") != std::string::npos || what.find("not a seedrl replay") != std::string::npos));
    }
  }
  SECTION("trailing data") {
    auto f = file;
    f.push_back('x');
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("trailing"));
  }
  SECTION("not a snapshot at all") {
    write_bytes(path, std::vector<char>(200, 'a'));
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("not a seedrl replay snapshot"));
  }
  SECTION("another geometry: sequence length, LSTM, observations, capacity") {
    CHECK_THAT(load_error(good, snapshot_layout(DType::kFloat32, 6), 8), Catch::Contains("sequences of 5"));
    CHECK_THAT(load_error(good, snapshot_layout(DType::kFloat32, 5, 4), 8), Catch::Contains("--lstm-size"));
    CHECK_THAT(load_error(good, snapshot_layout(DType::kUInt8), 8), Catch::Contains("observations"));
    CHECK_THAT(load_error(good, l, 16), Catch::Contains("--replay-capacity"));
  }
  SECTION("a cursor that does not fit the sequences, behind correct checksums") {
    // Header field `next` sits after magic, mark, version, 4 geometry
    // fields, dtype, rank, 2 dims, capacity and size.
    const std::size_t next_at = 8 + 4 + 4 + 4 * 8 + 4 + 4 + 2 * 8 + 8 + 8;
    const std::size_t header_end = body - 4;  // the header's CRC precedes the records
    auto f = file;
    const std::int64_t next = 2;  // 6 of 8 held: the next insert must go to 6
    std::memcpy(f.data() + next_at, &next, sizeof(next));
    const std::uint32_t crc = crc32c(f.data(), header_end);
    std::memcpy(f.data() + header_end, &crc, 4);
    write_bytes(path, f);
    CHECK_THAT(load_error(path, l, 8), Catch::Contains("insert position"));
  }
}

TEST_CASE("a replay snapshot that cannot be written leaves no .tmp and the previous file", "[r2d2][replay][snapshot]") {
  const auto l = snapshot_layout(DType::kFloat32);
  const std::string dir = temp_dir("replay_snapshot_full");
  const std::string path = dir + "/replay.bin";
  Replay replay(l, snapshot_config(8));
  fill(replay, 3);
  save_replay_snapshot(replay, path, 1);
  const std::vector<char> before = bytes_of(path);
  fill(replay, 4);
  // The temporary file is the full device: every write fails with ENOSPC.
  std::filesystem::create_symlink("/dev/full", path + ".tmp");
  std::string what;
  try {
    save_replay_snapshot(replay, path, 2);
  } catch (const ReplaySnapshotError& e) {
    what = e.what();
  }
  CHECK_THAT(what, Catch::Contains(path + ".tmp"));
  CHECK(what.find('\n') == std::string::npos);
  CHECK_FALSE(std::filesystem::exists(std::filesystem::symlink_status(path + ".tmp")));
  CHECK(bytes_of(path) == before);
  Replay loaded(l, snapshot_config(8));
  CHECK(load_replay_snapshot(loaded, path).sequences == 3);

  SECTION("the run's save writes the checkpoint all the same, then fails") {
    TrainConfig tc;
    tc.logdir = dir;
    tc.r2d2.min_replay = 1;
    std::filesystem::create_symlink("/dev/full", path + ".tmp");
    ReplayCheckpoint rc(tc, replay);
    bool checkpoint_saved = false;
    CHECK_THROWS_WITH(rc.save(2, [&] { checkpoint_saved = true; }),
                      Catch::Contains(path + ".tmp") && Catch::Contains("--no-checkpoint-replay"));
    CHECK(checkpoint_saved);
    CHECK(bytes_of(path) == before);
  }
}

TEST_CASE("resume takes a replay as new as the checkpoint or newer, and skips an older one",
          "[r2d2][replay][snapshot]") {
  const auto l = snapshot_layout(DType::kFloat32);
  const std::string dir = temp_dir("replay_snapshot_steps");
  TrainConfig tc;
  tc.logdir = dir;
  tc.r2d2.min_replay = 1;
  Replay saved(l, snapshot_config(8));
  fill(saved, 5);
  ReplayCheckpoint(tc, saved).save(100, [] {});
  REQUIRE(std::filesystem::exists(replay_snapshot_path(dir)));

  Replay same(l, snapshot_config(8));
  CHECK(ReplayCheckpoint(tc, same).resume(true, 100) == 5);
  CHECK(same.size() == 5);
  Replay newer(l, snapshot_config(8));  // killed between replay.bin's rename and checkpoint.pt's
  CHECK(ReplayCheckpoint(tc, newer).resume(true, 90) == 5);
  Replay older(l, snapshot_config(8));  // the checkpoint was saved again without it
  CHECK(ReplayCheckpoint(tc, older).resume(true, 120) == 0);
  CHECK(older.size() == 0);
  Replay fresh(l, snapshot_config(8));  // no checkpoint was loaded
  CHECK(ReplayCheckpoint(tc, fresh).resume(false, 0) == 0);
  TrainConfig off = tc;
  off.checkpoint_replay = false;
  Replay without(l, snapshot_config(8));
  CHECK(ReplayCheckpoint(off, without).resume(true, 100) == 0);
  bool saved_checkpoint = false;
  ReplayCheckpoint(off, saved).save(200, [&] { saved_checkpoint = true; });
  CHECK(saved_checkpoint);
  CHECK(read_replay_snapshot_info(replay_snapshot_path(dir), saved).learner_steps == 100);  // untouched

  // A damaged one stops the resume, saying how to go on without it.
  auto f = bytes_of(replay_snapshot_path(dir));
  f[f.size() - 9] ^= 0x10;
  write_bytes(replay_snapshot_path(dir), f);
  Replay damaged(l, snapshot_config(8));
  CHECK_THROWS_WITH(ReplayCheckpoint(tc, damaged).resume(true, 100),
                    Catch::StartsWith("--resume: replay snapshot " + replay_snapshot_path(dir)) &&
                        Catch::Contains("--no-checkpoint-replay") && !Catch::Contains("\n"));

  // A fresh run in this logdir sets the replay aside with the checkpoint.
  write_bytes(dir + "/checkpoint.pt", {'x'});
  const std::string aside = prepare_run_directory(dir, false);
  CHECK(std::filesystem::exists(aside + "/replay.bin"));
  CHECK_FALSE(std::filesystem::exists(replay_snapshot_path(dir)));
}

namespace {

// Packed as on a command line.
// clang-format off
const std::vector<std::string> kShortRun = {
    "train", "--algo", "r2d2", "--env", "cartpole", "--actors", "4", "--lstm", "--lstm-size", "16", "--hidden",
    "16", "--unroll-length", "10", "--burn-in", "4", "--sequence-overlap", "5", "--batch-size", "8",
    "--min-replay", "40", "--replay-capacity", "2000", "--replay-ratio", "2", "--target-update-period", "50",
    "--log-interval-s", "1", "--seed", "3"};
// clang-format on

// N of the last "<what> N sequences" line of `output`; -1 if none.
std::int64_t last_count(const std::string& output, const std::string& what) {
  const std::regex re(what + " (\\d+) sequences");
  std::int64_t n = -1;
  for (auto it = std::sregex_iterator(output.begin(), output.end(), re); it != std::sregex_iterator(); ++it)
    n = std::stoll((*it)[1].str());
  return n;
}

}  // namespace

TEST_CASE("a resumed r2d2 run starts with the replay it saved", "[cli][train][r2d2][snapshot][slow]") {
  const std::string dir = temp_dir("train_r2d2_replay");
  auto first = kShortRun;
  first.insert(first.end(), {"--max-frames", "6000", "--logdir", dir});
  RunResult r = run_seedrl(first);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const std::int64_t saved = last_count(r.output, "saved replay:");
  CHECK(saved > 40);
  CHECK(std::filesystem::exists(dir + "/replay.bin"));
  CHECK_FALSE(std::filesystem::exists(dir + "/replay.bin.tmp"));

  auto resumed = kShortRun;
  resumed.insert(resumed.end(), {"--max-frames", "7000", "--logdir", dir, "--resume"});
  RunResult r2 = run_seedrl(resumed);
  INFO(r2.output);
  REQUIRE(r2.status == 0);
  CHECK(last_count(r2.output, "resumed replay:") == saved);
  CHECK_THAT(r2.output, !Catch::Contains("replay refills"));
  const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
  CHECK(s["replay_size"].get<double>() >= static_cast<double>(saved));

  // A damaged replay stops --resume with one line that says how to go on.
  auto f = bytes_of(dir + "/replay.bin");
  f[f.size() / 2] ^= 0x01;
  write_bytes(dir + "/replay.bin", f);
  auto longer = kShortRun;  // the run reached 7000 frames: resuming to 7000 would have nothing to do
  longer.insert(longer.end(), {"--max-frames", "8000", "--logdir", dir, "--resume"});
  RunResult bad = run_seedrl(longer);
  INFO(bad.output);
  CHECK(bad.status == 2);
  const std::string last_line = bad.output.substr(bad.output.rfind('\n', bad.output.size() - 2) + 1);
  CHECK_THAT(last_line,
             Catch::Contains("replay.bin") && Catch::Contains("checksum") && Catch::Contains("--no-checkpoint-replay"));
  // Without it, the run resumes and refills.
  auto without_replay = kShortRun;
  without_replay.insert(without_replay.end(),
                        {"--max-frames", "8000", "--logdir", dir, "--resume", "--no-checkpoint-replay"});
  RunResult without = run_seedrl(without_replay);
  INFO(without.output);
  CHECK(without.status == 0);
  CHECK_THAT(without.output, Catch::Contains("replay refills 40 sequences"));
}
