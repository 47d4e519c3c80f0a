#include "seedrl/trainer/pipeline.h"

#include <exception>
#include <utility>

#include <spdlog/spdlog.h>
#include <torch/torch.h>

#include "seedrl/actor/actor_pool.h"
#include "seedrl/env/episode_outcome.h"
#include "seedrl/env/registry.h"
#include "seedrl/inference/inference_fleet.h"
#include "seedrl/net/remote_actor_server.h"
#include "seedrl/publisher/param_publisher.h"
#include "seedrl/trainer/remote_training.h"
#include "seedrl/trainer/run_monitor.h"
#include "seedrl/util/error_text.h"
#include "seedrl/util/heap_tuning.h"
#include "seedrl/util/torch_runtime.h"

namespace seedrl {

Pipeline::Pipeline(const TrainConfig& config, Algorithm& algorithm)
    : config_(config), algorithm_(algorithm), placement_(resolve_placement(config)) {
  if (share_one_heap_arena_for(config.actors)) spdlog::info("{} actor threads: one heap arena", config.actors);
  configure_torch_runtime(config.torch_threads,
                          placement_.inference.front().is_cuda() || placement_.learner.front().is_cuda());
  const EnvPtr probe = EnvRegistry::builtin().make(config.env, config.env_options);
  spec_ = probe->spec();
  // The envs' outcome phrases (Football's goal, lost to the keeper, ...) are
  // named here rather than by the first actor to make its envs, so the
  // ended_* columns are in metrics.csv's header however early its first row.
  if (const auto says = episode_outcomes(*probe); !says.empty()) {
    episodes_.name_outcomes(says);
    eval_episodes_.name_outcomes(says);
  }
  // Before any thread starts (see other_threads_).
  cpus_ = learner_cpus_for(config, placement_, *probe);
  other_threads_ = std::make_unique<ScopedThreadCpus>(cpus_.others);
  torch::manual_seed(config.seed);

  // Slots: local training envs, then remote ones (leased by connecting
  // actors, recorded like local ones), then the algorithm's evaluation envs.
  const int local_envs = config.num_envs();
  remote_envs_ = net::remote_slots(config);
  train_envs_ = local_envs + remote_envs_;
  store_ = std::make_unique<TrajectoryStore>(algorithm.unroll_layout(spec_), train_envs_, config.queue_capacity,
                                             algorithm.store_batch_size());
  store_->stagger_unrolls();
  publisher_ = std::make_unique<ParamPublisher>();
  algorithm.build(
      {config, spec_, placement_, cpus_, *store_, *publisher_, frames_, train_envs_, remote_envs_, &tally_});

  InferenceFleetConfig fleet_config = inference_fleet_config(config, spec_.observation, remote_envs_);
  fleet_config.eval_envs = algorithm.eval_envs();
  inference_ = std::make_unique<InferenceFleet>(
      placement_.inference, fleet_config, [&](RequestBatcher& batcher, torch::Device device) {
        return algorithm.make_inference(batcher, device, fleet_config.num_slots());
      });
  const ActorPoolConfig actor_config = actor_pool_config(config);
  actors_ = std::make_unique<ActorPool>(actor_config, inference_->batchers(), episodes_, frames_);
  if (algorithm.eval_envs() > 0) {
    ActorPoolConfig ec = actor_config;
    ec.actors = algorithm.eval_envs();
    ec.threads_flag = "--eval-envs";
    ec.envs_per_actor = 1;
    ec.first_slot = train_envs_;
    ec.max_frames = 0;  // they stop with the run; their frames are not counted
    eval_actors_ = std::make_unique<ActorPool>(ec, inference_->batchers(), eval_episodes_, eval_frames_);
  }
  // Listens now, so that a bad address fails before any thread starts.
  remote_ = net::make_remote_server(config, spec_, local_envs, *inference_, episodes_, frames_, [this](int slot) {
    inference_->settle_slot(slot);  // its last steps recorded first
    algorithm_.release_slot(slot, *store_, *inference_);
  });
  learner_thread_ = std::make_unique<LearnerThread>([this] { return algorithm_.learner_step(); },
                                                    [this] { return algorithm_.learner_steps(); }, [this] { save_(); },
                                                    cpus_.of_rank(0));
}

Pipeline::~Pipeline() { stop(); }

void Pipeline::set_counters(const CheckpointCounters& counters) {
  frames_.store(counters.frames);
  episodes_.set_base(counters.episodes, counters.recent_returns, counters.recent_lengths);
  tally_.rebase();
}

void Pipeline::start(std::function<void()> save) {
  save_ = std::move(save);
  // Consumers first: nothing produced waits for a stage not yet running.
  algorithm_.start_stages();
  learner_thread_->start();
  inference_->start();
  actors_->start();
  if (eval_actors_) eval_actors_->start();
}

void Pipeline::stop() noexcept {
  if (stopped_) return;
  stopped_ = true;
  try {
    // Producers stop, the queues close (waking the learner, the algorithm's
    // stages and inference), then every thread joins.
    algorithm_.request_stop_stages();
    actors_->request_stop();
    if (eval_actors_) eval_actors_->request_stop();
    if (remote_)
      remote_->request_stop(finished_ || frames_.load() >= config_.learner.max_frames ? net::GoodbyeCode::kFinished
                                                                                      : net::GoodbyeCode::kShutdown);
    store_->close();
    inference_->stop();
    if (remote_) remote_->join();
    actors_->join();
    if (eval_actors_) eval_actors_->join();
    learner_thread_->join();
    algorithm_.join_stages();
  } catch (const std::exception& e) {
    spdlog::error("stopping the pipeline: {}", error_text(e));
  }
}

bool Pipeline::failed() const {
  // Any stage that stopped on an error: without the actors or inference no
  // frame would come again, and the learner would wait for ever.
  return learner_thread_->failed() || algorithm_.stages_failed() || actors_->failed() ||
         (eval_actors_ && eval_actors_->failed()) || inference_->failed();
}

void Pipeline::add_scalars(Scalars& out) {
  algorithm_.add_scalars(out);
  const InferenceTotals is = inference_->totals();
  const double batches = static_cast<double>(is.batches);
  out.insert({{"queue_size", static_cast<double>(store_->queued())},
              {"inference_batch_mean", batches > 0 ? is.rows / batches : 0.0},
              {"inference_timeouts", static_cast<double>(is.timeouts)}});
  if (eval_actors_) {
    const auto ev = eval_episodes_.summary();
    out["eval_episodes"] = static_cast<double>(ev.episodes);
    out["eval_return_mean"] = ev.episodes > 0 ? ev.return_mean : kNoValue;
  }
}

}  // namespace seedrl
