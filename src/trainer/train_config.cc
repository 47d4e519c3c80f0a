#include "seedrl/trainer/train_config.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

namespace seedrl {

int default_actors() {
  const int cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::clamp(16 * cpus, 16, 1024);
}

int atari_frames_per_step(const TrainConfig& c) {
  if (c.env.rfind("atari:", 0) != 0) return 0;
  return c.env_options.frame_skip * c.env_options.action_repeat;
}

void resolve_defaults(TrainConfig& c) {
  // With remote actors, --actors 0 means none here.
  if (c.actors <= 0 && c.remote_actors.empty()) c.actors = default_actors();
  if (c.inference_batch <= 0) {
    // Sized for every env that can connect; the batcher seals batches at half
    // of the envs actually live (RequestBatcher::track_live_envs).
    const int remote_slots = c.remote_actors.empty() ? 0 : c.max_remote_envs;
    c.inference_batch = std::clamp((c.num_envs() + remote_slots) / 2, 1, 1024);
    c.inference_batch_auto = true;
  }
  if (c.queue_capacity <= 0) c.queue_capacity = 2 * c.learner.batch_size;
  if (c.actor_nice < 0) {
    // Nice is machine-wide: at +19 the actors would also yield to every other
    // process (a compiler, another run), so only oversubscribed runs use it.
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    c.actor_nice = c.actors > kActorsPerThreadForNice * hw ? 19 : 0;
  }
}

std::string to_json(const TrainConfig& c) {
  nlohmann::json j;
  j["env"] = c.env;
  j["sticky_action_prob"] = c.env_options.sticky_action_prob;
  j["difficulty_ramping"] = c.env_options.difficulty_ramping;
  j["frame_skip"] = c.env_options.frame_skip;
  j["screen_size"] = c.env_options.screen_size;
  j["noop_max"] = c.env_options.noop_max;
  j["max_episode_frames"] = c.env_options.max_episode_frames;
  j["terminal_on_life_loss"] = c.env_options.terminal_on_life_loss;
  j["minimal_action_set"] = c.env_options.minimal_action_set;
  j["football_obs"] = c.env_options.football_obs;
  j["football_rewards"] = c.env_options.football_rewards;
  j["football_shot_hold"] = c.env_options.football_shot_hold;
  j["football_shot_hold_prob"] = c.env_options.football_shot_hold_prob;
  j["football_shot_hold_prob_final"] = c.env_options.football_shot_hold_prob_final;
  j["action_repeat"] = c.env_options.action_repeat;
  j["frame_stack"] = c.env_options.frame_stack;
  j["time_limit"] = c.env_options.time_limit;
  j["actors"] = c.actors;
  j["envs_per_actor"] = c.envs_per_actor;
  j["actor_nice"] = c.actor_nice;
  j["seed"] = c.seed;
  j["inference_batch"] = c.inference_batch;
  j["inference_timeout_us"] = c.inference_timeout_us;
  j["inference_threads"] = c.inference_threads;
  j["cuda_graphs"] = c.cuda_graphs;
  j["device"] = c.device;
  j["devices"] = c.devices;
  j["inference_devices"] = c.inference_devices;
  j["learner_devices"] = c.learner_devices;
  j["learner_cpus"] = c.learner_cpus;
  j["replica_checksum_every"] = c.replica_checksum_every;
  j["unroll_length"] = c.unroll_length;
  j["queue_capacity"] = c.queue_capacity;
  j["model"] = {{"torso", c.model.torso},
                {"hidden", c.model.hidden},
                {"lstm", c.model.lstm},
                {"lstm_size", c.model.lstm_size},
                {"normalize_obs", c.model.normalize_obs},
                {"activation", c.model.activation},
                {"separate_value_net", c.model.separate_value_net},
                {"prev_action_input", c.model.prev_action_input},
                {"precision", c.model.precision},
                {"weight_init", c.model.weight_init}};
  const auto& l = c.learner;
  j["batch_size"] = l.batch_size;
  j["epochs"] = l.epochs;
  j["minibatches"] = l.minibatches;
  j["max_frames"] = l.max_frames;
  j["optimizer"] = {{"name", l.optimizer.name},
                    {"learning_rate", l.optimizer.learning_rate},
                    {"adam_eps", l.optimizer.adam_eps},
                    {"rmsprop_alpha", l.optimizer.rmsprop_alpha},
                    {"rmsprop_eps", l.optimizer.rmsprop_eps},
                    {"rmsprop_momentum", l.optimizer.rmsprop_momentum},
                    {"max_grad_norm", l.optimizer.max_grad_norm}};
  j["loss"] = {{"discount", l.loss.discount},
               {"baseline_cost", l.loss.baseline_cost},
               {"entropy_cost", l.loss.entropy_cost},
               {"entropy_cost_final", l.loss.entropy_cost_final},
               {"reward_clip", l.loss.reward_clip},
               {"reward_scale", l.loss.reward_scale},
               {"ppo_clip", l.loss.ppo_clip},
               {"normalize_advantages", l.loss.normalize_advantages},
               {"ppo_decoupled", l.loss.ppo_decoupled},
               {"fixed_targets", l.loss.fixed_targets},
               {"pg_rho_bar", l.loss.vtrace.pg_rho_bar},
               {"rho_bar", l.loss.vtrace.rho_bar},
               {"c_bar", l.loss.vtrace.c_bar},
               {"lambda", l.loss.vtrace.lambda}};
  j["algo"] = c.algo;
  const auto& r = c.r2d2;
  j["r2d2"] = {{"burn_in", r.burn_in},
               {"sequence_overlap", r.sequence_overlap},
               {"n_step", r.n_step},
               {"target_update_period", r.target_update_period},
               {"priority_eta", r.priority_eta},
               {"replay_capacity", r.replay_capacity},
               {"priority_exponent", r.priority_exponent},
               {"importance_exponent", r.importance_exponent},
               {"replay_ratio", r.replay_ratio},
               {"min_replay", r.min_replay},
               {"epsilon", r.epsilon},
               {"epsilon_alpha", r.epsilon_alpha},
               {"eval_envs", r.eval_envs},
               {"eval_epsilon", r.eval_epsilon}};
  const auto& sc = c.sac;
  j["sac"] = {{"tau", sc.tau},
              {"initial_temperature", sc.initial_temperature},
              {"learn_temperature", sc.learn_temperature},
              {"random_steps", sc.random_steps}};
  if (!std::isnan(sc.target_entropy)) j["sac"]["target_entropy"] = sc.target_entropy;
  j["logdir"] = c.logdir;
  j["checkpoint_every_s"] = c.checkpoint_every_s;
  j["checkpoint_replay"] = c.checkpoint_replay;
  j["log_interval_s"] = c.log_interval_s;
  j["eval"] = {{"every_s", c.eval_every_s}, {"episodes", c.eval_episodes}, {"greedy", c.eval_greedy}};
  return j.dump();
}

namespace {

// nlohmann's get<int> narrows silently (4294967360 becomes 64). The config is
// read, written back, and every integer of the file compared with what was
// read: one that changed did not fit its setting's type.
void check_integers_fit(const nlohmann::json& given, const nlohmann::json& read, const std::string& path) {
  if (given.is_object() && read.is_object()) {
    for (const auto& [key, value] : given.items())
      if (const auto it = read.find(key); it != read.end())
        check_integers_fit(value, *it, path.empty() ? key : path + "." + key);
  } else if (given.is_array() && read.is_array()) {
    if (given.size() != read.size()) return;
    for (std::size_t i = 0; i < given.size(); ++i)
      check_integers_fit(given[i], read[i], path + "[" + std::to_string(i) + "]");
  } else if ((given.is_number_integer() || given.is_number_unsigned()) && read.is_number() && given != read) {
    throw std::invalid_argument("run config: " + path + " = " + given.dump() + " does not fit its setting's type");
  }
}

}  // namespace

static TrainConfig read_config(const std::string& text);

TrainConfig train_config_from_json(const std::string& text) {
  TrainConfig c = read_config(text);
  check_integers_fit(nlohmann::json::parse(text), nlohmann::json::parse(to_json(c)), "");
  return c;
}

static TrainConfig read_config(const std::string& text) {
  try {
    auto j = nlohmann::json::parse(text);
    TrainConfig c;
    c.env = j.at("env");
    c.env_options.sticky_action_prob = j.value("sticky_action_prob", c.env_options.sticky_action_prob);
    c.env_options.difficulty_ramping = j.value("difficulty_ramping", c.env_options.difficulty_ramping);
    c.env_options.frame_skip = j.value("frame_skip", c.env_options.frame_skip);
    c.env_options.screen_size = j.value("screen_size", c.env_options.screen_size);
    c.env_options.noop_max = j.value("noop_max", c.env_options.noop_max);
    c.env_options.max_episode_frames = j.value("max_episode_frames", c.env_options.max_episode_frames);
    c.env_options.terminal_on_life_loss = j.value("terminal_on_life_loss", c.env_options.terminal_on_life_loss);
    c.env_options.minimal_action_set = j.value("minimal_action_set", c.env_options.minimal_action_set);
    c.env_options.football_obs = j.value("football_obs", c.env_options.football_obs);
    c.env_options.football_rewards = j.value("football_rewards", c.env_options.football_rewards);
    c.env_options.football_shot_hold = j.value("football_shot_hold", c.env_options.football_shot_hold);
    c.env_options.football_shot_hold_prob = j.value("football_shot_hold_prob", c.env_options.football_shot_hold_prob);
    c.env_options.football_shot_hold_prob_final =
        j.value("football_shot_hold_prob_final", c.env_options.football_shot_hold_prob_final);
    c.env_options.action_repeat = j.value("action_repeat", 1);
    c.env_options.frame_stack = j.value("frame_stack", 1);
    c.env_options.time_limit = j.value("time_limit", 0);
    c.actors = j.at("actors");
    c.envs_per_actor = j.at("envs_per_actor");
    c.actor_nice = j.value("actor_nice", c.actor_nice);
    c.seed = j.at("seed");
    c.inference_batch = j.at("inference_batch");
    c.inference_timeout_us = j.at("inference_timeout_us");
    c.inference_threads = j.at("inference_threads");
    if (const auto g = j.find("cuda_graphs"); g != j.end())  // a bool before "off | learner | all"
      c.cuda_graphs = g->is_boolean() ? (g->get<bool>() ? "all" : "off") : g->get<std::string>();
    c.device = j.at("device");
    c.devices = j.value("devices", c.devices);
    c.inference_devices = j.value("inference_devices", c.inference_devices);
    c.learner_devices = j.value("learner_devices", c.learner_devices);
    // Builds before the rename to --learner-cpus wrote "learner_cores".
    c.learner_cpus = j.value("learner_cpus", j.value("learner_cores", c.learner_cpus));
    c.replica_checksum_every = j.value("replica_checksum_every", c.replica_checksum_every);
    c.unroll_length = j.at("unroll_length");
    c.queue_capacity = j.at("queue_capacity");
    const auto& m = j.at("model");
    c.model.torso = m.at("torso");
    c.model.hidden = m.at("hidden").get<std::vector<int>>();
    c.model.lstm = m.at("lstm");
    c.model.lstm_size = m.at("lstm_size");
    c.model.normalize_obs = m.value("normalize_obs", false);  // older checkpoints lack it
    c.model.activation = m.value("activation", std::string("relu"));
    c.model.separate_value_net = m.value("separate_value_net", false);
    c.model.prev_action_input = m.value("prev_action_input", false);  // older checkpoints lack it
    c.model.precision = m.value("precision", std::string("fp32"));    // older checkpoints lack it
    c.model.weight_init = m.value("weight_init", std::string("default"));
    auto& l = c.learner;
    l.batch_size = j.at("batch_size");
    l.epochs = j.value("epochs", 1);  // older checkpoints lack it
    l.minibatches = j.value("minibatches", 1);
    l.max_frames = j.at("max_frames");
    const auto& o = j.at("optimizer");
    l.optimizer.name = o.at("name");
    l.optimizer.learning_rate = o.at("learning_rate");
    l.optimizer.adam_eps = o.at("adam_eps");
    l.optimizer.rmsprop_alpha = o.at("rmsprop_alpha");
    l.optimizer.rmsprop_eps = o.at("rmsprop_eps");
    l.optimizer.rmsprop_momentum = o.at("rmsprop_momentum");
    l.optimizer.max_grad_norm = o.at("max_grad_norm");
    const auto& s = j.at("loss");
    l.loss.discount = s.at("discount");
    l.loss.baseline_cost = s.at("baseline_cost");
    l.loss.entropy_cost = s.at("entropy_cost");
    l.loss.entropy_cost_final = s.value("entropy_cost_final", -1.0);  // older checkpoints lack it
    l.loss.reward_clip = s.at("reward_clip");
    l.loss.reward_scale = s.value("reward_scale", 1.0);  // older checkpoints lack it
    l.loss.ppo_clip = s.value("ppo_clip", 0.0);
    l.loss.normalize_advantages = s.value("normalize_advantages", false);
    l.loss.ppo_decoupled = s.value("ppo_decoupled", false);
    l.loss.fixed_targets = s.value("fixed_targets", false);  // older checkpoints lack it
    l.loss.vtrace.pg_rho_bar = s.value("pg_rho_bar", 1.0);
    l.loss.vtrace.rho_bar = s.at("rho_bar");
    l.loss.vtrace.c_bar = s.at("c_bar");
    l.loss.vtrace.lambda = s.at("lambda");
    c.algo = j.value("algo", std::string("vtrace"));
    if (j.contains("r2d2")) {
      const auto& r = j.at("r2d2");
      auto& o = c.r2d2;
      o.burn_in = r.value("burn_in", o.burn_in);
      o.sequence_overlap = r.value("sequence_overlap", o.sequence_overlap);
      o.n_step = r.value("n_step", o.n_step);
      o.target_update_period = r.value("target_update_period", o.target_update_period);
      o.priority_eta = r.value("priority_eta", o.priority_eta);
      o.replay_capacity = r.value("replay_capacity", o.replay_capacity);
      o.priority_exponent = r.value("priority_exponent", o.priority_exponent);
      o.importance_exponent = r.value("importance_exponent", o.importance_exponent);
      o.replay_ratio = r.value("replay_ratio", o.replay_ratio);
      o.min_replay = r.value("min_replay", o.min_replay);
      o.epsilon = r.value("epsilon", o.epsilon);
      o.epsilon_alpha = r.value("epsilon_alpha", o.epsilon_alpha);
      o.eval_envs = r.value("eval_envs", o.eval_envs);
      o.eval_epsilon = r.value("eval_epsilon", o.eval_epsilon);
    }
    if (j.contains("sac")) {
      const auto& r = j.at("sac");
      auto& o = c.sac;
      o.tau = r.value("tau", o.tau);
      o.initial_temperature = r.value("initial_temperature", o.initial_temperature);
      o.learn_temperature = r.value("learn_temperature", o.learn_temperature);
      o.random_steps = r.value("random_steps", o.random_steps);
      if (r.contains("target_entropy")) o.target_entropy = r.at("target_entropy");
    }
    c.logdir = j.at("logdir");
    c.checkpoint_every_s = j.at("checkpoint_every_s");
    c.checkpoint_replay = j.value("checkpoint_replay", c.checkpoint_replay);  // older checkpoints lack it
    c.log_interval_s = j.at("log_interval_s");
    if (const auto e = j.find("eval"); e != j.end()) {  // older checkpoints lack it
      c.eval_every_s = e->value("every_s", c.eval_every_s);
      c.eval_episodes = e->value("episodes", c.eval_episodes);
      c.eval_greedy = e->value("greedy", c.eval_greedy);
    }
    return c;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed run config: ") + e.what());
  }
}

int expected_policy_lag(int envs, int batch_size) { return envs / std::max(1, batch_size); }

ActorPoolConfig actor_pool_config(const TrainConfig& config) {
  ActorPoolConfig a;
  a.env = config.env;
  a.env_options = config.env_options;
  a.actors = config.actors;
  a.envs_per_actor = config.envs_per_actor;
  a.nice = config.actor_nice;
  a.seed = config.seed;
  a.max_frames = config.learner.max_frames;
  return a;
}

}  // namespace seedrl
