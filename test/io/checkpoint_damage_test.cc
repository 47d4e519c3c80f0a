// Damaged and crafted checkpoints: every byte edited (the CRC recomputed, as
// a crafted file would have it), truncations, and indexes that lie about
// sizes, dims, dtypes, offsets and names. Loading either succeeds with the
// model's shapes or throws one CheckpointError: one line, naming the file.
// Never a crash, and never another exception type.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "../cli/run_binary.h"
#include "../util/cartpole_spec.h"
#include "checkpoint_bytes.h"
#include "seedrl/io/checkpoint.h"
#include "seedrl/learner/vtrace_learner.h"
#include "seedrl/model/agent_net.h"

using namespace seedrl;
using seedrl::test::cartpole_spec;
using seedrl::test::file_bytes;
using seedrl::test::write_bytes;

namespace {

ModelConfig tiny_model() {
  ModelConfig mc;
  mc.hidden = {4};
  return mc;
}

// A small model with Adam state and a target network, the file it saves, and
// what a load of a damaged copy gives.
struct Subject {
  AgentNet model{cartpole_spec(), tiny_model(), 2};
  AgentNet target{cartpole_spec(), tiny_model(), 2};
  std::unique_ptr<torch::optim::Optimizer> opt = make_optimizer(OptimizerConfig{}, model->parameters());
  std::vector<std::vector<std::int64_t>> shapes;
  std::string dir = seedrl::test::temp_dir("ckpt_damage");
  std::string good_path = dir + "/good.pt";
  std::string bad_path = dir + "/bad.pt";

  Subject() {
    const auto obs = torch::ones({2, 3, 4});
    model->forward(obs, torch::zeros({2, 3}, torch::kUInt8), model->initial_state(3)).value.sum().backward();
    opt->step();
    save_checkpoint(good_path, *model, *opt, {10, 2, 30, 4}, "{\"env\":\"cartpole\"}",
                    {{"target", target.ptr().get()}});
    for (const auto& p : model->parameters()) shapes.push_back(p.sizes().vec());
  }

  // "" when `bytes` loads, else the CheckpointError's message. Any other
  // exception escapes and fails the test.
  std::string load(const std::string& bytes) {
    write_bytes(bad_path, bytes);
    try {
      read_checkpoint_header(bad_path);
      load_checkpoint(bad_path, *model, opt.get(), {{"target", target.ptr().get()}});
    } catch (const CheckpointError& e) {
      return e.what();
    }
    std::vector<std::vector<std::int64_t>> now;
    for (const auto& p : model->parameters()) now.push_back(p.sizes().vec());
    REQUIRE(now == shapes);
    return "";
  }

  // A refusal must be one line that names the file.
  bool well_refused(const std::string& message) const {
    return message.find(bad_path) != std::string::npos && message.find('\n') == std::string::npos &&
           message.find('\r') == std::string::npos;
  }

  // Requires a refusal mentioning `says`.
  void check_refused(const std::string& bytes, const std::string& says) {
    const std::string message = load(bytes);
    INFO(message);
    CHECK_FALSE(message.empty());
    CHECK(well_refused(message));
    CHECK_THAT(message, Catch::Contains(says));
  }
};

std::size_t index_end(const std::string& good) {
  std::uint64_t index_bytes = 0;
  std::memcpy(&index_bytes, good.data() + 8, 8);
  return seedrl::test::kHeaderBytes + index_bytes;
}

}  // namespace

TEST_CASE("a checkpoint with any byte edited and its CRC recomputed loads or is refused in one line",
          "[io][checkpoint]") {
  Subject s;
  const std::string good = file_bytes(s.good_path);
  REQUIRE(s.load(good).empty());
  // The header and the index byte by byte, several edits each; the tensor
  // bytes (plain numbers) at a stride.
  const std::size_t meta_end = seedrl::test::is_archive_format(good) ? good.size() : index_end(good);
  int tried = 0, refused = 0, badly_refused = 0;
  std::string first_bad;
  for (std::size_t pos = 0; pos < good.size(); ++pos) {
    if (pos >= meta_end && pos % 5 != 0) continue;
    const auto c = static_cast<unsigned char>(good[pos]);
    std::vector<unsigned char> edits{static_cast<unsigned char>(c ^ 0x01), static_cast<unsigned char>(c ^ 0x20)};
    if (pos < meta_end)
      for (unsigned char e : {'9', '-', '"', ']', '\0', '\xff'})
        if (e != c) edits.push_back(e);
    for (unsigned char e : edits) {
      std::string bytes = good;
      bytes[pos] = static_cast<char>(e);
      seedrl::test::reseal(bytes);
      const std::string message = s.load(bytes);
      ++tried;
      if (message.empty()) continue;
      ++refused;
      if (!s.well_refused(message) && badly_refused++ == 0)
        first_bad = "byte " + std::to_string(pos) + " set to " + std::to_string(e) + ": " + message;
    }
  }
  INFO(tried << " edits, " << refused << " refused; first refusal that is not one line naming the file: " << first_bad);
  CHECK(badly_refused == 0);
  CHECK(refused > tried / 4);  // the edits to the index are mostly refused
}

TEST_CASE("a truncated checkpoint is refused in one line, whatever its header says", "[io][checkpoint]") {
  Subject s;
  const std::string good = file_bytes(s.good_path);
  const std::size_t meta_end = index_end(good);
  for (std::size_t len = 0; len < good.size(); len += len < meta_end + 64 ? 1 : 7) {
    INFO("length " << len);
    std::string cut = good.substr(0, len);
    s.check_refused(cut, "");
    // The header rewritten to the lengths that are left: the index or the
    // data itself ends early.
    if (len >= seedrl::test::kHeaderBytes) {
      const std::uint64_t index_bytes = std::min<std::uint64_t>(meta_end, len) - seedrl::test::kHeaderBytes;
      const std::uint64_t data_bytes = len - seedrl::test::kHeaderBytes - index_bytes;
      std::memcpy(cut.data() + 8, &index_bytes, 8);
      std::memcpy(cut.data() + 16, &data_bytes, 8);
      seedrl::test::reseal(cut);
      s.check_refused(cut, "");
    }
  }
}

TEST_CASE("a checkpoint whose index lies is refused in one line naming the file", "[io][checkpoint]") {
  Subject s;
  const std::string good = file_bytes(s.good_path);
  const auto parts = seedrl::test::split_checkpoint(good);
  auto edited = [&](auto&& edit) {
    auto p = parts;
    edit(p.index);
    return seedrl::test::join_checkpoint(p);
  };
  auto& first = parts.index["modules"][0]["tensors"][0];
  REQUIRE(first["name"].is_string());

  SECTION("a header claiming sizes far past the file") {
    std::string b = good;
    const std::uint64_t huge = std::uint64_t{1} << 62;
    std::memcpy(b.data() + 16, &huge, 8);
    s.check_refused(b, "truncated or padded");
    std::memcpy(b.data() + 8, &huge, 8);
    std::memcpy(b.data() + 16, &huge, 8);  // the two lengths overflow when added
    s.check_refused(b, "truncated or padded");
  }
  SECTION("a shape of 2^40 x 2^40 elements, its byte count to match") {
    s.check_refused(edited([](auto& j) {
                      auto& t = j["modules"][0]["tensors"][0];
                      t["shape"] = {std::int64_t{1} << 40, std::int64_t{1} << 40};
                      t["bytes"] = std::uint64_t{1} << 62;
                    }),
                    "shape too large");
  }
  SECTION("a tensor claiming more bytes than the file holds") {
    s.check_refused(edited([](auto& j) {
                      auto& t = j["modules"][0]["tensors"][0];
                      t["shape"] = {std::int64_t{1} << 30};
                      t["bytes"] = std::uint64_t{4} << 30;
                    }),
                    "runs past the end");
  }
  SECTION("a target moment that is not one of the run's") {
    s.check_refused(edited([](auto& j) { j["counters"]["target_reached"] = "soon"; }), "target_reached");
    s.check_refused(edited([](auto& j) {
                      j["counters"]["target_reached"] = {{"target", 1},         {"mean_return", 1},
                                                         {"frames", 1LL << 60}, {"wall_seconds", 1},
                                                         {"learner_steps", 1},  {"episodes", 100}};
                    }),
                    "target_reached");
    s.check_refused(edited([](auto& j) {
                      j["counters"]["target_reached"] = {{"target", 1},        {"mean_return", 1},   {"frames", 0},
                                                         {"wall_seconds", -5}, {"learner_steps", 1}, {"episodes", 100}};
                    }),
                    "target_reached");
  }
  SECTION("optimizer state no update leaves, behind a valid CRC") {
    const auto poisoned = [&](const std::string& name, float value) {
      auto p = parts;
      for (const auto& t : p.index["optimizer"]["params"][0]["tensors"])
        if (t["name"] == name) std::memcpy(p.data.data() + t["offset"].get<std::size_t>(), &value, sizeof(value));
      return seedrl::test::join_checkpoint(p);
    };
    s.check_refused(poisoned("exp_avg", std::nanf("")), "exp_avg holds a value that is not finite");
    s.check_refused(poisoned("exp_avg_sq", std::numeric_limits<float>::infinity()), "not finite");
    s.check_refused(poisoned("exp_avg_sq", -1.f), "exp_avg_sq holds a negative value");
    CHECK(s.load(poisoned("exp_avg", 0.5f)).empty());  // a value an update could leave loads
  }
  SECTION("a byte count that is not its shape's") {
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["bytes"] = 12; }), "claims 12 bytes");
  }
  SECTION("a negative dim") {
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["shape"][0] = -4; }), "negative dim");
  }
  SECTION("a dim that is not an integer") {
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["shape"][0] = 4.5; }), "not an integer");
  }
  SECTION("too many dims") {
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["shape"] = std::vector<int>(40, 1); }),
                    "at most 16 dims");
  }
  SECTION("a dtype that does not exist") {
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["dtype"] = "float33"; }),
                    "unknown dtype 'float33'");
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["dtype"] = 6; }), "\"dtype\" is not a string");
  }
  SECTION("a dtype that exists but is not the model's") {
    s.check_refused(edited([](auto& j) {
                      auto& t = j["modules"][0]["tensors"][0];
                      t["dtype"] = "int32";  // same item size, so the bytes still add up
                    }),
                    "is int32 there, float32 here");
  }
  SECTION("a bool tensor holding other bytes") {
    auto p = parts;
    auto& t = p.index["modules"][0]["tensors"][0];
    t["dtype"] = "bool";
    t["shape"] = {t["bytes"]};
    p.data[t["offset"].get<std::size_t>()] = 7;
    s.check_refused(seedrl::test::join_checkpoint(p), "non-bool byte");
  }
  SECTION("offsets past the end, overlapping or out of order") {
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["offset"] = std::uint64_t{1} << 40; }),
                    "starts at byte");
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][1]["offset"] = 0; }), "starts at byte 0");
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["offset"] = -1; }), "below 0");
  }
  SECTION("a name twice") {
    s.check_refused(edited([](auto& j) {
                      auto& t = j["modules"][0]["tensors"];
                      t[1]["name"] = t[0]["name"];
                    }),
                    "twice");
    s.check_refused(edited([](auto& j) { j["modules"][1]["name"] = "model"; }), "module 'model' twice");
  }
  SECTION("a name missing, or one the model does not have") {
    const std::string name = first["name"];
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"][0]["name"] = "no.such.weight"; }),
                    "has no " + name + " there");
    // Dropped, with the data it described: its bytes are then more than the index describes.
    s.check_refused(edited([](auto& j) { j["modules"][0]["tensors"].erase(0); }), "");
    s.check_refused(edited([](auto& j) { j["modules"].erase(1); }), "");
    s.check_refused(edited([](auto& j) { j["modules"][0]["name"] = "modell"; }), "holds no model");
  }
  SECTION("a name with a line break stays one line") {
    s.check_refused(edited([](auto& j) {
                      auto& t = j["modules"][0]["tensors"];
                      t[0]["name"] = "a\nb";
                      t[1]["name"] = "a\nb";
                    }),
                    "a?b");
  }
  SECTION("optimizer state that does not fit the optimizer") {
    s.check_refused(edited([](auto& j) { j["optimizer"]["type"] = "sgd"; }), "neither adam nor rmsprop");
    s.check_refused(edited([](auto& j) { j["optimizer"]["type"] = "rmsprop"; }), "");
    s.check_refused(edited([](auto& j) { j["optimizer"]["params"].push_back(nullptr); }), "parameters there");
    s.check_refused(edited([](auto& j) { j["optimizer"]["params"][0]["step"] = -3; }), "below 0");
    s.check_refused(edited([](auto& j) { j["optimizer"]["params"][0]["tensors"][0]["name"] = "momentum_buffer"; }),
                    "which adam has not");
    s.check_refused(edited([](auto& j) { j["optimizer"]["params"][0]["tensors"][1]["name"] = "max_exp_avg_sq"; }),
                    "lacks exp_avg_sq");
    s.check_refused(edited([](auto& j) { j["optimizer"]["learning_rates"][0] = -1.0; }), "negative");
    s.check_refused(
        edited([](auto& j) { j["optimizer"]["params"][0]["step"] = std::numeric_limits<std::int64_t>::max(); }),
        "has step");
    s.check_refused(edited([](auto& j) { j["optimizer"]["learning_rates"].push_back(0.1); }), "parameter groups");
  }
  SECTION("counters, config and format") {
    s.check_refused(edited([](auto& j) { j["counters"]["frames"] = -1; }), "below 0");
    s.check_refused(edited([](auto& j) { j["counters"]["frames"] = 18446744073709551615ull; }), "64-bit integer");
    s.check_refused(edited([](auto& j) { j["counters"].erase("episodes"); }), "has no \"episodes\"");
    s.check_refused(edited([](auto& j) { j["config"] = 3; }), "\"config\" is not a string");
    s.check_refused(edited([](auto& j) { j["format"] = 3; }), "format 3");
    s.check_refused(edited([](auto& j) { j = nlohmann::json::array(); }), "not a JSON object");
  }
  SECTION("an index that is not JSON, or nested without end") {
    s.check_refused(seedrl::test::join_checkpoint("{\"format\": 2, \"counters\": {", parts.data), "not valid JSON");
    const std::size_t depth = 200000;
    s.check_refused(seedrl::test::join_checkpoint(std::string(depth, '[') + std::string(depth, ']'), parts.data),
                    "not valid JSON");
  }
}
