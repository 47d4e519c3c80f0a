// Device placement: parsing of the device flags and the default split between
// inference and the data-parallel learner, for simulated GPU counts.
#include <catch2/catch.hpp>

#include "seedrl/trainer/placement.h"

using namespace seedrl;

namespace {
torch::Device gpu(int i) { return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(i)); }
const torch::Device cpu(torch::kCPU);
std::vector<torch::Device> gpus(int from, int to) {
  std::vector<torch::Device> v;
  for (int i = from; i < to; ++i) v.push_back(gpu(i));
  return v;
}
}  // namespace

TEST_CASE("all means every visible GPU or else one CPU", "[trainer][placement]") {
  CHECK(parse_device_list("all", 0, "--devices") == std::vector<torch::Device>{cpu});
  CHECK(parse_device_list("all", 3, "--devices") == gpus(0, 3));
  CHECK(parse_device_list("cpu,cpu", 0, "--devices") == std::vector<torch::Device>{cpu, cpu});
  CHECK(parse_device_list(" cuda:1 , cuda ", 2, "--devices") == std::vector<torch::Device>{gpu(1), gpu(0)});
}

TEST_CASE("the default split for 1 2 4 and 8 GPUs", "[trainer][placement]") {
  auto one = resolve_placement("all", "", "", 1);
  CHECK(one.inference == std::vector<torch::Device>{gpu(0)});
  CHECK(one.learner == std::vector<torch::Device>{gpu(0)});  // shared
  auto two = resolve_placement("all", "", "", 2);
  CHECK(two.inference == std::vector<torch::Device>{gpu(0)});
  CHECK(two.learner == std::vector<torch::Device>{gpu(1)});
  for (int n : {4, 8}) {
    auto p = resolve_placement("all", "", "", n);
    CHECK(p.inference == std::vector<torch::Device>{gpu(0)});
    CHECK(p.learner == gpus(1, n));
  }
  auto none = resolve_placement("all", "", "", 0);
  CHECK(none.inference == std::vector<torch::Device>{cpu});
  CHECK(none.learner == std::vector<torch::Device>{cpu});
  CHECK_THAT(resolve_placement("all", "", "", 4).describe(),
             Catch::Contains("learner cuda:1,cuda:2,cuda:3 (data-parallel, 3 replicas)"));
}

TEST_CASE("one explicit side takes the rest of --devices", "[trainer][placement]") {
  auto p = resolve_placement("all", "", "cuda:0,cuda:1,cuda:2", 4);
  CHECK(p.learner == gpus(0, 3));
  CHECK(p.inference == std::vector<torch::Device>{gpu(3)});
  auto q = resolve_placement("all", "", "cuda:0,cuda:1", 2);  // nothing left: inference shares the first
  CHECK(q.inference == std::vector<torch::Device>{gpu(0)});
  auto r = resolve_placement("cuda:0,cuda:1,cuda:2", "cuda:2", "", 4);
  CHECK(r.learner == gpus(0, 2));
  auto c = resolve_placement("all", "", "cpu,cpu", 0);
  CHECK(c.learner == std::vector<torch::Device>{cpu, cpu});
  CHECK(c.inference == std::vector<torch::Device>{cpu});
}

TEST_CASE("several inference devices leave the rest to the learner", "[trainer][placement]") {
  auto p = resolve_placement("all", "cuda:0,cuda:1", "", 4);
  CHECK(p.inference == gpus(0, 2));
  CHECK(p.learner == gpus(2, 4));
  CHECK(p.describe() == "inference cuda:0,cuda:1 (2 batchers) | learner cuda:2,cuda:3 (data-parallel, 2 replicas)");
  auto c = resolve_placement("all", "cpu,cpu", "", 0);
  CHECK(c.inference == std::vector<torch::Device>{cpu, cpu});
  CHECK(c.learner == std::vector<torch::Device>{cpu});
}

TEST_CASE("the older --device flag still places everything on one device", "[trainer][placement]") {
  auto p = resolve_placement("all", "", "", 2, "cuda:1");
  CHECK(p.inference == std::vector<torch::Device>{gpu(1)});
  CHECK(p.learner == std::vector<torch::Device>{gpu(1)});
  auto q = resolve_placement("all", "", "", 2, "cpu");
  CHECK(q.learner == std::vector<torch::Device>{cpu});
  // A new flag wins over --device.
  CHECK(resolve_placement("all", "", "cpu,cpu", 0, "cpu").learner.size() == 2);
}

TEST_CASE("bad device lists name the flag at fault", "[trainer][placement]") {
  auto message = [](auto fn) {
    try {
      fn();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message([] { resolve_placement("all", "", "cuda:0", 0); }),
             Catch::StartsWith("--learner-devices:") && Catch::Contains("no CUDA device"));
  CHECK_THAT(message([] { resolve_placement("cuda:5", "", "", 2); }),
             Catch::StartsWith("--devices:") && Catch::Contains("only 2 GPU(s)"));
  CHECK_THAT(message([] { resolve_placement("all", "gpu0", "", 2); }), Catch::StartsWith("--inference-devices:"));
  CHECK_THAT(message([] { resolve_placement("all", "", "cpu,,cpu", 0); }), Catch::StartsWith("--learner-devices:"));
  CHECK_THAT(message([] { resolve_placement("all", "", "cpu,cuda:0", 1); }),
             Catch::StartsWith("--learner-devices:") && Catch::Contains("mixes"));
  // Learner replicas may share a GPU (through Gloo, replica_group_backend_test); batchers may not.
  CHECK(message([] { resolve_placement("all", "", "cuda:1,cuda:1", 2); }) == "no error");
  CHECK_THAT(message([] { resolve_placement("all", "cuda:0,cuda:0", "", 2); }),
             Catch::StartsWith("--inference-devices:") && Catch::Contains("twice"));
  CHECK_THAT(message([] { resolve_placement("all", "", "", 0, "cuda"); }), Catch::StartsWith("--device:"));
  CHECK_THAT(message([] { resolve_placement("all", "", "cuda:x", 2); }), Catch::Contains("cannot parse"));
}
