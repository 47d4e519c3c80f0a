// The whole pipeline, the Pipeline train() runs, without logging or
// checkpoints, measured over a fixed window with the pipeline's own counters.
#include <spdlog/spdlog.h>
#include <torch/torch.h>
#include <algorithm>

#include "measure_window.h"
#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/net/remote_actor_runner.h"
#include "seedrl/net/remote_actor_server.h"
#include "seedrl/trainer/pipeline.h"
#include "seedrl/trainer/vtrace_algorithm.h"

namespace seedrl::bench {

namespace {

// The pipeline's own counters at one instant.
struct Snapshot {
  std::int64_t frames = 0, learner_frames = 0;
  std::uint64_t actor_step_ns = 0, actor_wait_ns = 0;
  InferenceTotals inf;
  std::uint64_t push_wait_ns = 0, learner_wait_ns = 0;
  std::uint64_t learner_steps = 0, learner_step_ns = 0;
  double lag_sum = 0;
};

Snapshot take_snapshot(Pipeline& pipeline, VTraceAlgorithm& vtrace, const TrainConfig& config) {
  Snapshot s;
  s.learner_steps = pipeline.learner_thread().stepped();
  s.learner_step_ns = pipeline.learner_thread().step_ns();
  s.lag_sum = vtrace.policy_lag_sum();
  s.learner_frames = static_cast<std::int64_t>(s.learner_steps) * config.unroll_length * config.learner.batch_size;
  s.frames = pipeline.frames().load();
  s.actor_step_ns = pipeline.actors().step_ns();
  s.actor_wait_ns = pipeline.actors().wait_ns();
  s.inf = pipeline.inference().totals();
  s.push_wait_ns = pipeline.store().push_wait_ns();
  s.learner_wait_ns = vtrace.learner().batch_wait_ns();
  return s;
}

// Where the time went between two snapshots `measured` apart, over
// `actor_threads` local actor threads and `inference_threads` in all.
EndToEndResult breakdown(const Snapshot& a, const Snapshot& b, const Window& measured, int actor_threads,
                         int inference_threads) {
  const double window = measured.seconds;
  // Waits are counted when they end, so one that straddles the window's start
  // counts whole: a long wait can push a fraction past 1. Clamp to [0, 1].
  auto share = [](double x) { return std::clamp(x, 0.0, 1.0); };
  auto ms_per = [](std::uint64_t ns, std::uint64_t n) { return n > 0 ? static_cast<double>(ns) / 1e6 / n : 0.0; };
  EndToEndResult r;
  r.frames_per_s = static_cast<double>(b.frames - a.frames) / window;
  r.learner_frames_per_s = static_cast<double>(b.learner_frames - a.learner_frames) / window;
  r.cpu_us_per_frame = measured.cpu_us_per(static_cast<double>(b.frames - a.frames));
  // Remote actor threads keep no step/wait clocks here: their shares stay 0.
  const double actor_ns = window * 1e9 * actor_threads;
  if (actor_ns > 0) {
    r.actor_step_fraction = share(static_cast<double>(b.actor_step_ns - a.actor_step_ns) / actor_ns);
    r.actor_wait_fraction = share(static_cast<double>(b.actor_wait_ns - a.actor_wait_ns) / actor_ns);
  }
  const std::uint64_t batches = b.inf.batches - a.inf.batches;
  r.batch_fill_ms_mean = ms_per(b.inf.fill_ns - a.inf.fill_ns, batches);
  r.forward_ms_mean = ms_per(b.inf.forward_ns - a.inf.forward_ns, batches);
  r.record_ms_mean = ms_per(b.inf.record_ns - a.inf.record_ns, batches);
  r.batch_mean = batches > 0 ? static_cast<double>(b.inf.rows - a.inf.rows) / batches : 0;
  r.inference_graph_fraction =
      batches > 0 ? static_cast<double>(b.inf.graph_batches - a.inf.graph_batches) / static_cast<double>(batches) : 0;
  r.inference_timeout_fraction = b.inf.sealed > a.inf.sealed ? static_cast<double>(b.inf.timeouts - a.inf.timeouts) /
                                                                   static_cast<double>(b.inf.sealed - a.inf.sealed)
                                                             : 0;
  const double inference_ns = window * 1e9 * inference_threads;
  r.inference_idle_fraction = share(static_cast<double>(b.inf.idle_ns - a.inf.idle_ns) / inference_ns);
  r.inference_push_wait_fraction = share(static_cast<double>(b.push_wait_ns - a.push_wait_ns) / inference_ns);
  const std::uint64_t steps = b.learner_steps - a.learner_steps;
  r.learner_steps = static_cast<std::int64_t>(steps);
  r.learner_step_ms_mean = ms_per(b.learner_step_ns - a.learner_step_ns, steps);
  r.learner_wait_fraction = share(static_cast<double>(b.learner_wait_ns - a.learner_wait_ns) / (window * 1e9));
  r.policy_lag_mean = steps > 0 ? (b.lag_sum - a.lag_sum) / static_cast<double>(steps) : 0;
  return r;
}

}  // namespace

EndToEndResult bench_end_to_end(const TrainConfig& config, const BenchTiming& timing, bool remote) {
  TrainConfig run = config;
  run.learner.max_frames = std::int64_t{1} << 50;  // runs by the clock; keeps the learning rate from decaying to 0
  const int num_envs = config.num_envs();
  if (remote) {
    // As `train --actors 0 --remote-actors 127.0.0.1:0` sets it up; the same
    // actor threads and envs step in a `seedrl actor` runner of this process,
    // through the learner's socket on loopback.
    run.actors = 0;
    run.remote_actors = "127.0.0.1:0";
    run.max_remote_envs = num_envs;
    run.max_remote_connections = config.actors;
  }
  VTraceAlgorithm vtrace(run);
  Pipeline pipeline(run, vtrace);
  spdlog::info("bench: cpus: {}", pipeline.cpus().description);
  vtrace.publish();
  std::unique_ptr<net::RemoteActorRunner> remote_actors;
  if (remote) {
    net::RemoteActorsConfig rc;
    rc.port = pipeline.remote()->port();
    rc.env = config.env;
    rc.env_options = config.env_options;
    rc.actors = config.actors;
    rc.envs_per_actor = config.envs_per_actor;
    rc.seed = config.seed;
    remote_actors = std::make_unique<net::RemoteActorRunner>(rc);
  }
  pipeline.start();
  if (remote_actors) {
    remote_actors->start();
    // Measure remote actors, not their connecting: on a loaded machine that
    // took longer than a short window (and measured 0 frames/s).
    net::RemoteActorServer& server = *pipeline.remote();
    if (!wait_until([&] { return server.active_sessions() >= config.actors; }, std::chrono::seconds(30)))
      spdlog::warn("bench: {} of {} remote actors connected after 30 s; measuring those", server.active_sessions(),
                   config.actors);
  }

  auto snapshot = [&] { return take_snapshot(pipeline, vtrace, config); };
  // The warm-up starts once every actor has made its envs and the learner
  // has updated once: 2,048 ALE instances take tens of seconds to make, and a
  // window that began before would measure the start-up, not the pipeline.
  const auto settled = [&] {
    return (pipeline.actors().settled() >= run.actors && snapshot().learner_steps > 0) || pipeline.failed();
  };
  if (!wait_until(settled, std::chrono::minutes(10)))
    spdlog::warn(
        "bench: after 10 minutes {} of {} actors had made their envs and the learner had {} updates; "
        "measuring anyway",
        pipeline.actors().settled(), run.actors, snapshot().learner_steps);
  Snapshot a, b;
  const Window measured = measure(
      timing, [&] { a = snapshot(); }, [&] { b = snapshot(); },
      [&] {
        const Snapshot now = snapshot();
        return (now.frames > a.frames && now.learner_steps > a.learner_steps && now.inf.batches > a.inf.batches) ||
               pipeline.failed();
      });

  if (remote_actors) remote_actors->request_stop();
  pipeline.stop();
  if (remote_actors) remote_actors->join();
  if (pipeline.failed()) throw std::runtime_error("end-to-end learner failed (see the error above)");

  return breakdown(a, b, measured, run.actors, config.inference_threads * pipeline.inference().size());
}

}  // namespace seedrl::bench
