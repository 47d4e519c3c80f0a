#include "seedrl/cli/pipeline_flags.h"

#include "seedrl/cli/env_flags.h"
#include "seedrl/cli/validators.h"

namespace seedrl {

void add_pipeline_flags(CLI::App& cmd, TrainConfig& c) {
  cmd.add_option("--envs-per-actor", c.envs_per_actor,
                 "Environments stepped by each actor thread (auto: v-trace cartpole 8, minatar games 4, else 1)")
      ->check(in_range(1, 1 << 16))
      ->default_str("auto");
  cmd.add_option("--actor-nice", c.actor_nice,
                 "Actor threads run SCHED_BATCH at this nice increment, so that thousands of them do not "
                 "starve the inference and learner threads (0: default scheduling; -1: 19 with more than 64 "
                 "actors per hardware thread, else 0)")
      ->check(in_range(-1, 19));
  cmd.add_option("--seed", c.seed, "Seed for environments and model initialisation");
  add_env_option_flags(cmd, c.env_options);
  cmd.add_option("--football-shot-hold-prob-final", c.env_options.football_shot_hold_prob_final,
                 "Football: --football-shot-hold-prob at --max-frames, reached linearly from its value at the start "
                 "(a curriculum: held shots first, then the policy's own) (unset: constant; local actors only)")
      ->check(in_range(0.0, 1.0))
      ->default_str("unset");

  cmd.add_option("--inference-batch", c.inference_batch, "Inference batch size (0: half of all environments)")
      ->check(in_range(0, 1 << 20));
  cmd.add_option("--inference-timeout-us", c.inference_timeout_us,
                 "Run a partial inference batch after this many microseconds")
      ->check(in_range(1, 10'000'000));
  cmd.add_option("--inference-threads", c.inference_threads, "Inference threads per inference device")
      ->check(in_range(1, 256));
  cmd.add_flag("--inference-answer-first,!--no-inference-answer-first", c.inference_answer_first,
               "Inference answers a batch's actors before it records their steps into the trajectory store, so "
               "they step their envs meanwhile (--no-inference-answer-first: only after)")
      ->default_str(c.inference_answer_first ? "true" : "false");
  cmd.add_option("--cuda-graphs", c.cuda_graphs,
                 "off | learner: replay a single CUDA learner's update as a CUDA graph | all: also the inference "
                 "forward of batch sizes that recur (CUDA devices)")
      ->check(CLI::IsMember({"off", "learner", "all"}));
  cmd.add_option("--device", c.device, "auto | cpu | cuda | cuda:N");
  cmd.add_option("--devices", c.devices,
                 "all (every visible GPU, else one CPU) | cuda:0,cuda:1,... | cpu,cpu,...: devices to use; by "
                 "default the first serves inference and the rest learn data-parallel (one device: shared)");
  cmd.add_option("--inference-devices", c.inference_devices,
                 "Inference devices, one batcher and weight copy each, actors spread over them, e.g. cuda:0,cuda:1 "
                 "or cpu,cpu (default: from --devices)");
  cmd.add_option("--learner-devices", c.learner_devices,
                 "Learner devices, one data-parallel replica each, e.g. cpu,cpu (default: from --devices)");
  cmd.add_option("--learner-cpus", c.learner_cpus,
                 "reserve: each learner thread gets a CPU (x --torch-threads) that no other thread of the run uses; "
                 "share: none; auto: reserve for v-trace on CPU learners when half the CPUs stay for the rest and an "
                 "env step is cheap "
                 "(under 10 us: the learner, not the actors, bounds the run)")
      ->check(CLI::IsMember({"auto", "reserve", "share"}));

  cmd.add_option("--unroll-length", c.unroll_length,
                 "V-trace and R2D2: steps per unroll (T; unrolls carry T+1 entries)")
      ->check(in_range(1, 100000));
  cmd.add_option("--queue-capacity", c.queue_capacity, "Finished unrolls queued for the learner (0: 2 x batch)")
      ->check(in_range(0, 1 << 20));

  cmd.add_option("--model", c.model.torso,
                 "Torso: auto | mlp | minatar | impala | impala-shallow | nature (auto: images up to 16x16 minatar, "
                 "larger impala (impala-shallow with a CPU learner), vectors mlp)");
  // Widths as separate values or one comma list: --hidden 64 64, --hidden 64,64.
  cmd.add_option("--hidden", c.model.hidden, "MLP torso layer widths (64 64 or 64,64)")
      ->check(in_range(1, 1 << 16))
      ->delimiter(',');
  cmd.add_option("--activation", c.model.activation, "MLP torso nonlinearity: relu | tanh")
      ->check(CLI::IsMember({"relu", "tanh"}));
  cmd.add_flag("--separate-value-net,!--no-separate-value-net", c.model.separate_value_net,
               "V-trace: give the value head a torso of its own (not with --lstm)")
      ->default_str(c.model.separate_value_net ? "true" : "false");
  cmd.add_flag("--prev-action-input,!--no-prev-action-input", c.model.prev_action_input,
               "V-trace: feed the previous action (one-hot; discrete actions) to the heads and the LSTM")
      ->default_str(c.model.prev_action_input ? "true" : "false");
  cmd.add_flag("--lstm,!--no-lstm", c.model.lstm,
               "V-trace and R2D2: add an LSTM core (state kept centrally per environment)")
      ->default_str(c.model.lstm ? "true" : "false");
  cmd.add_option("--lstm-size", c.model.lstm_size, "V-trace and R2D2: LSTM width")->check(in_range(1, 1 << 16));
  cmd.add_option("--precision", c.model.precision,
                 "fp32 | bf16 | auto: bf16 runs the image torsos in bfloat16 with float32 weights (SAC: its learner's "
                 "hidden-layer matmuls on bfloat16 operands), for GPUs with bfloat16 tensor cores and CPUs with "
                 "AMX, or AVX512-BF16 on AMD; auto: bf16 where every device is one of those and the torso is an "
                 "image one or the algorithm SAC, fp32 elsewhere")
      ->check(CLI::IsMember({"fp32", "bf16", "auto"}));
  cmd.add_option("--weight-init", c.model.weight_init,
                 "V-trace: default | orthogonal: orthogonal weights (torso gain sqrt 2, policy 0.01, value 1) as "
                 "PPO initialises its Atari net")
      ->check(CLI::IsMember({"default", "orthogonal"}));
  cmd.add_flag(
         "--normalize-obs,!--no-normalize-obs", c.model.normalize_obs,
         "V-trace: normalise vector observations by running mean and variance (kept in the model and checkpoints)")
      ->default_str(c.model.normalize_obs ? "true" : "false");

  cmd.add_option("--batch-size", c.learner.batch_size, "Unrolls per learner batch")->check(in_range(1, 1 << 16));
  cmd.add_option("--epochs", c.learner.epochs,
                 "V-trace: gradient steps on each batch (later ones corrected by V-trace)")
      ->check(in_range(1, 64));
  cmd.add_option("--minibatches", c.learner.minibatches,
                 "V-trace: split each epoch's pass into N minibatches of whole unrolls, shuffled each epoch, one "
                 "optimizer step each (PPO's minibatches; N divides --batch-size)")
      ->check(in_range(1, 1 << 16));
  cmd.add_option("--torch-threads", c.torch_threads, "LibTorch intra-op threads")->check(in_range(1, 1024));
}

}  // namespace seedrl
