// Subnormal floats flushed to zero on the threads that run models: the
// learner's, its replicas' (and SAC's critic lane), and inference's.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define SEEDRL_TEST_MXCSR 1
#endif

#include "seedrl/inference/inference_threads.h"
#include "seedrl/learner/replica_threads.h"
#include "seedrl/trainer/learner_thread.h"
#include "seedrl/util/denormals.h"

namespace {

// 1e-30 * 1e-10 = 1e-40, below float's smallest normal (1.18e-38): a
// subnormal where the thread keeps them, 0 where it flushes them.
float subnormal_product() {
  volatile float a = 1e-30f, b = 1e-10f;
  return a * b;
}

// Runs fn on a fresh thread whose floating-point environment keeps
// subnormals, whatever the thread that runs the test has set (a new thread
// inherits its creator's flags, and other tests in this process flush).
template <typename Fn>
void on_a_thread_that_keeps_subnormals(Fn fn) {
  std::thread([&] {
#ifdef SEEDRL_TEST_MXCSR
    _mm_setcsr(_mm_getcsr() & ~0x8040u);  // FTZ (bit 15) and DAZ (bit 6) off
#endif
    fn();
  }).join();
}

}  // namespace

TEST_CASE("a thread that asks flushes subnormal products to zero", "[util][denormals]") {
#ifndef SEEDRL_TEST_MXCSR
  SKIP("no x86 MXCSR to clear on this CPU");
#endif
  float before = -1, after = -1, child = -1;
  bool supported = false;
  on_a_thread_that_keeps_subnormals([&] {
    before = subnormal_product();
    supported = seedrl::flush_denormals_on_this_thread();
    after = subnormal_product();
    std::thread([&] { child = subnormal_product(); }).join();
  });
  CHECK(before > 0);
  CHECK(before < std::numeric_limits<float>::min());
  REQUIRE(supported);
  CHECK(after == 0);
  CHECK(child == 0);  // a thread started afterwards inherits the mode
}

TEST_CASE("the learner, replica and inference threads flush subnormals", "[util][denormals][trainer]") {
#ifndef SEEDRL_TEST_MXCSR
  SKIP("no x86 MXCSR to clear on this CPU");
#endif
  float learner = -1, replica = -1, inference = -1;
  on_a_thread_that_keeps_subnormals([&] {
    REQUIRE(subnormal_product() > 0);
    seedrl::LearnerThread thread(
        [&] {
          learner = subnormal_product();
          return false;
        },
        [] { return std::int64_t{0}; }, [] {});
    thread.start();
    thread.join();

    seedrl::ReplicaThreads replicas(2);
    replicas.run([&](int rank) {
      if (rank == 1) replica = subnormal_product();
    });

    seedrl::RequestBatcher batcher(seedrl::ArraySpec{{4}, seedrl::DType::kFloat32}, 1, std::chrono::microseconds(1000),
                                   2, false);
    seedrl::InferenceThreads threads(batcher);
    threads.start(1, [&](int) { inference = subnormal_product(); });
    threads.stop();
  });
  CHECK(learner == 0);
  CHECK(replica == 0);
  CHECK(inference == 0);
}
