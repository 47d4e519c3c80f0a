// While learner processes form their group, Gloo's connect blocks each rank
// until its peers answer or several collective timeouts have passed, and
// nothing can cancel it. A rank that cannot join (its Gloo device or a
// connection fails) reports why through the rendezvous store; every other
// process's watch sees the report and ends that process at once, with the
// reporter's reason, instead of leaving it blocked. The process holding rank
// 0 serves the store, so it ends only once every other rank has read the
// report (or a deadline passed): a peer that loses the store can say no more
// than that it went away.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include <torch/csrc/distributed/c10d/Store.hpp>

namespace seedrl {

class FormationWatch {
 public:
  // Ends this process with a one-line reason (the whole line). Production's
  // logs it and exits; a test's records it and returns.
  using End = std::function<void(const std::string& why)>;

  // `store` is the watch's own client (a TCPStore connection is not shared
  // between threads). This process holds global ranks
  // first_rank..first_rank+local_ranks-1 of world_size.
  FormationWatch(c10::intrusive_ptr<c10d::Store> store, int first_rank, int local_ranks, int world_size,
                 std::chrono::milliseconds linger, std::string store_name, End end);
  ~FormationWatch();  // stops watching (the group formed, or this process failed)
  FormationWatch(const FormationWatch&) = delete;
  FormationWatch& operator=(const FormationWatch&) = delete;

  // From a local rank's thread that could not join: tells the other ranks
  // `why`, then ends this process through `end` with `line`.
  void report(int rank, const std::string& why, const std::string& line);

 private:
  void watch();
  std::string stops() const;           // "learner processes: rank R stops: "
  void acknowledge();                  // this process has read the report
  void linger_if_serving_the_store();  // rank 0's process: wait for every other rank's acknowledgement

  c10::intrusive_ptr<c10d::Store> store_;
  int first_rank_, local_ranks_, world_size_;
  std::chrono::milliseconds linger_;
  std::string store_name_;
  End end_;
  std::mutex store_mutex_;  // report() and the watch thread share the client
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::atomic<bool> reported_here_{false};
  std::thread thread_;
};

}  // namespace seedrl
