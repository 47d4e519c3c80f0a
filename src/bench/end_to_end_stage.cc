// The whole pipeline, wired as train() wires it but without logging or
// checkpoints, measured over a fixed window with the pipeline's own counters.
#include <algorithm>
#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "measure_window.h"
#include "seedrl/actor/actor_pool.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/learner/data_parallel.h"
#include "seedrl/net/remote_actor_runner.h"
#include "seedrl/net/remote_actor_server.h"
#include "seedrl/trainer/remote_training.h"
#include "seedrl/trainer/learner_cores.h"
#include "seedrl/trainer/placement.h"
#include "seedrl/trainer/trainer.h"
#include "seedrl/util/cpu_affinity.h"
#include "seedrl/util/error_text.h"

namespace seedrl::bench {

EndToEndResult bench_end_to_end(const TrainConfig& config, const BenchTiming& timing, bool remote) {
  const Placement placement = resolve_placement(config);  // as train() places it
  const EnvPtr probe = EnvRegistry::builtin().make(config.env, config.env_options);
  const EnvSpec spec = probe->spec();
  // As train() keeps its learner threads' CPUs (and restores ours after).
  const LearnerCores cores = learner_cores_for(config, placement, *probe);
  ScopedThreadCpus other_threads(cores.others);
  spdlog::info("bench: cpus: {}", cores.description);
  const UnrollLayout layout = vtrace_unroll_layout(config, spec);
  torch::manual_seed(config.seed);
  auto make_model = [&] { return AgentNet(spec, config.model, layout.policy_size); };
  const int num_envs = config.num_envs();

  TrajectoryStore store(layout, num_envs, config.queue_capacity, config.learner.batch_size);
  store.stagger_unrolls();  // as train does
  ParamPublisher publisher;
  LearnerConfig learner_config = config.learner;
  learner_config.max_frames = std::int64_t{1} << 50;  // keep the learning rate from decaying to 0
  DataParallelOptions dp_options;
  dp_options.learner_cpus = cores.learner;
  DataParallelLearner learner(make_model, spec.action, learner_config, store, publisher, placement.learner,
                              dp_options);
  learner.publish();

  std::atomic<std::int64_t> frames{0};
  EpisodeStats episodes;
  ActorPoolConfig actor_config = actor_pool_config(config);
  actor_config.max_frames = 0;  // the bench runs by the clock, not a frame budget
  if (remote) actor_config.actors = 0;
  // Remote: the same actor threads and envs, in a `seedrl actor` runner of
  // this process, stepping through the learner's socket on loopback.
  InferenceFleetConfig fleet_config = inference_fleet_config(config, spec.observation, remote ? num_envs : 0);
  fleet_config.local_actors = actor_config.actors;
  InferenceFleet inference(placement.inference, fleet_config, &store, publisher, make_model, spec.action);
  ActorPool actors(actor_config, inference.batchers(), episodes, frames);
  std::unique_ptr<net::RemoteActorServer> server;
  std::unique_ptr<net::RemoteActorRunner> remote_actors;
  if (remote) {
    TrainConfig learner_side = config;  // as `train --actors 0 --remote-actors 127.0.0.1:0` sets it up
    learner_side.remote_actors = "127.0.0.1:0";
    learner_side.max_remote_envs = num_envs;
    learner_side.max_remote_connections = config.actors;
    server = net::make_remote_server(learner_side, spec, 0, inference, episodes, frames,
                                     [&](int slot) {
      store.drop_partial(slot);
      inference.reset_slot(slot);
    });
    net::RemoteActorsConfig rc;
    rc.port = server->port();
    rc.env = config.env;
    rc.env_options = config.env_options;
    rc.actors = config.actors;
    rc.envs_per_actor = config.envs_per_actor;
    rc.seed = config.seed;
    remote_actors = std::make_unique<net::RemoteActorRunner>(rc);
  }

  // Learner thread totals, written by it alone.
  ThreadCount learner_steps, learner_step_ns;
  std::atomic<double> lag_sum{0};
  std::atomic<bool> learner_failed{false};
  std::thread learner_thread([&] {
    set_thread_cpus(cores.of_rank(0));  // none reserved: refused, unchanged
    try {
      LearnerStats s;
      std::uint64_t n = 0, ns = 0;
      double lag = 0;
      for (;;) {
        const auto t0 = Clock::now();
        if (!learner.step(s)) break;
        ns += static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
        lag += s.policy_lag;
        lag_sum.store(lag, std::memory_order_relaxed);
        learner_step_ns.value.store(ns, std::memory_order_relaxed);
        learner_steps.value.store(++n, std::memory_order_relaxed);
      }
    } catch (const std::exception& e) {
      spdlog::error("bench learner: {}", error_text(e));
      learner_failed.store(true);
    }
  });
  inference.start();
  actors.start();
  if (remote_actors) {
    remote_actors->start();
    // Measure remote actors, not their connecting: on a loaded machine that
    // took longer than a short window (and measured 0 frames/s).
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (server->active_sessions() < config.actors && Clock::now() < deadline) sleep_s(0.01);
    if (server->active_sessions() < config.actors)
      spdlog::warn("bench: {} of {} remote actors connected after 30 s; measuring those", server->active_sessions(),
                   config.actors);
  }

  struct Snapshot {
    std::int64_t frames = 0, learner_frames = 0;
    std::uint64_t actor_step_ns = 0, actor_wait_ns = 0;
    InferenceTotals inf;
    std::uint64_t push_wait_ns = 0, learner_wait_ns = 0;
    std::uint64_t learner_steps = 0, learner_step_ns = 0;
    double lag_sum = 0;
  };
  auto snapshot = [&] {
    Snapshot s;
    s.learner_steps = learner_steps.value.load(std::memory_order_relaxed);
    s.learner_step_ns = learner_step_ns.value.load(std::memory_order_relaxed);
    s.lag_sum = lag_sum.load(std::memory_order_relaxed);
    s.learner_frames = static_cast<std::int64_t>(s.learner_steps) * config.unroll_length * config.learner.batch_size;
    s.frames = frames.load();
    s.actor_step_ns = actors.step_ns();
    s.actor_wait_ns = actors.wait_ns();
    s.inf = inference.totals();
    s.push_wait_ns = store.push_wait_ns();
    s.learner_wait_ns = learner.batch_wait_ns();
    return s;
  };
  Snapshot a, b;
  const Window measured = measure(timing, [&] { a = snapshot(); }, [&] { b = snapshot(); }, [&] {
    const Snapshot now = snapshot();
    return (now.frames > a.frames && now.learner_steps > a.learner_steps && now.inf.batches > a.inf.batches) ||
           learner_failed.load();
  });
  const double window = measured.seconds;

  actors.request_stop();
  if (remote_actors) {
    remote_actors->request_stop();
    server->request_stop();
  }
  store.close();
  inference.stop();
  actors.join();
  if (remote_actors) {
    remote_actors->join();
    server->join();
  }
  learner_thread.join();
  if (learner_failed.load()) throw std::runtime_error("end-to-end learner failed (see the error above)");

  // Waits are counted when they end, so one that straddles the window's start
  // counts whole: a long wait can push a fraction past 1. Clamp to [0, 1].
  auto share = [](double x) { return std::clamp(x, 0.0, 1.0); };
  auto ms_per = [](std::uint64_t ns, std::uint64_t n) { return n > 0 ? static_cast<double>(ns) / 1e6 / n : 0.0; };
  EndToEndResult r;
  r.frames_per_s = static_cast<double>(b.frames - a.frames) / window;
  r.learner_frames_per_s = static_cast<double>(b.learner_frames - a.learner_frames) / window;
  r.cpu_us_per_frame = measured.cpu_us_per(static_cast<double>(b.frames - a.frames));
  // Remote actor threads keep no step/wait clocks here: their shares stay 0.
  const double actor_ns = window * 1e9 * actor_config.actors;
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
  r.inference_timeout_fraction =
      b.inf.sealed > a.inf.sealed ? static_cast<double>(b.inf.timeouts - a.inf.timeouts) / static_cast<double>(b.inf.sealed - a.inf.sealed) : 0;
  const double inference_ns = window * 1e9 * config.inference_threads * inference.size();
  r.inference_idle_fraction = share(static_cast<double>(b.inf.idle_ns - a.inf.idle_ns) / inference_ns);
  r.inference_push_wait_fraction = share(static_cast<double>(b.push_wait_ns - a.push_wait_ns) / inference_ns);
  const std::uint64_t steps = b.learner_steps - a.learner_steps;
  r.learner_steps = static_cast<std::int64_t>(steps);
  r.learner_step_ms_mean = ms_per(b.learner_step_ns - a.learner_step_ns, steps);
  r.learner_wait_fraction = share(static_cast<double>(b.learner_wait_ns - a.learner_wait_ns) / (window * 1e9));
  r.policy_lag_mean = steps > 0 ? (b.lag_sum - a.lag_sum) / static_cast<double>(steps) : 0;
  return r;
}

}  // namespace seedrl::bench
