// Regression: after close(), a submit must not claim a row in the batch that
// was open when close() ran (close() has already counted its rows off, so
// nothing would ever answer the new row and the actor would sleep forever).
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>

#include "../util/wait_until.h"
#include "seedrl/inference/request_batcher.h"

using namespace seedrl;

TEST_CASE("a submit after close returns at once even while a batch is open", "[batcher][inference]") {
  // Heap-allocated and released only on success: if a submit hangs, its
  // thread still uses the batcher, which must then outlive the test.
  auto batcher =
      std::make_unique<RequestBatcher>(ArraySpec{{2}, DType::kFloat32}, 4, std::chrono::seconds(60), 2, false);
  float obs[2] = {0, 0}, action_a = 0, action_b = 0;
  EnvStep a{0, 0, 0.f, obs, &action_a}, b{1, 0, 0.f, obs, &action_b};
  Completion ca, cb;
  std::atomic<int> a_done{0}, b_done{0};
  // A opens a batch (no inference thread runs it; the timeout is long).
  std::thread ta([&] { a_done.store(batcher->submit({&a, 1}, ca) ? 1 : 2); });
  CHECK(seedrl::test::wait_until([&] { return batcher->open_rows() == 1; }));  // A has claimed its row
  batcher->close();
  std::thread tb([&] { b_done.store(batcher->submit({&b, 1}, cb) ? 1 : 2); });
  seedrl::test::wait_until([&] { return a_done.load() != 0 && b_done.load() != 0; }, std::chrono::seconds(60));
  CHECK(a_done.load() == 2);  // returned false: closed
  CHECK(b_done.load() == 2);
  if (a_done.load() == 0 || b_done.load() == 0) {
    ta.detach();
    tb.detach();
    (void)batcher.release();  // a thread is stuck inside it
    return;
  }
  ta.join();
  tb.join();
}
