#!/usr/bin/env python3
"""Golden traces from the real, unmodified gfootball Python environment.

Steps gfootball (google-research/football at 3d9e754, built by
bench/football/build-python-engine.sh) with a seeded scripted policy and
writes, per scenario and seed, a text trace that a C++ test compares the
native port with step by step (format: bench/football/README.md).

Two envs run one after the other, never interleaved:
  1. SEED RL's env: representation='extracted', stacked=True (uint8 72x96x16),
     rewards='scoring,checkpoints'; the policy picks the actions.
  2. representation='simple115v2', stacked=False (float32 115), same rewards;
     replays the recorded actions. Rewards, score rewards, dones, episode
     numbers and the raw ball/score/mode/owner/active must agree with run 1,
     else this script fails (a determinism cross-check of the engine).

  . /tmp/football-py/env.sh
  PYTHONPATH=bench/football/stubs:$PYTHONPATH /usr/bin/python3 \
      bench/football/golden_traces.py [--out test/env/football/traces] [--only SCENARIO:SEED] [--repeat N]
"""

from __future__ import print_function

import argparse
import math
import os
import random
import sys
import time

import numpy as np

GFOOTBALL_COMMIT = '3d9e754'

# (scenario, seed, steps)
TRACES = [
    ('academy_empty_goal_close', 1, 1000),
    ('academy_empty_goal_close', 2, 1000),
    ('academy_run_to_score_with_keeper', 1, 1500),
    ('academy_run_to_score_with_keeper', 2, 1500),
    ('academy_3_vs_1_with_keeper', 1, 1200),
    ('academy_3_vs_1_with_keeper', 2, 1200),
    ('11_vs_11_easy_stochastic', 1, 6100),
    ('11_vs_11_easy_stochastic', 2, 1200),
]

FNV_OFFSET = 0xcbf29ce484222325
FNV_PRIME = 0x100000001b3
MASK64 = (1 << 64) - 1


def fnv1a64_naive(data):
  h = FNV_OFFSET
  for b in bytes(data):
    h = ((h ^ b) * FNV_PRIME) & MASK64
  return h


def fnv1a64(data):
  """FNV-1a 64 of a byte buffer; a run of n zero bytes is one multiplication
  by prime^n (h ^ 0 == h), so sparse SMM planes hash fast. Same value as
  fnv1a64_naive."""
  a = np.frombuffer(data, dtype=np.uint8)
  nz = np.flatnonzero(a)
  vals = a[nz].tolist()
  h = FNV_OFFSET
  pos = 0
  for i, v in zip(nz.tolist(), vals):
    if i > pos:
      h = (h * pow(FNV_PRIME, i - pos, 1 << 64)) & MASK64
    h = ((h ^ v) * FNV_PRIME) & MASK64
    pos = i + 1
  if a.size > pos:
    h = (h * pow(FNV_PRIME, a.size - pos, 1 << 64)) & MASK64
  return h


def obs_hash(obs, kind):
  if kind == 'smm':
    assert obs.dtype == np.uint8 and obs.shape == (72, 96, 16), (obs.dtype, obs.shape)
    buf = np.ascontiguousarray(obs).tobytes()
  else:
    assert obs.dtype == np.float32 and obs.shape == (115,), (obs.dtype, obs.shape)
    buf = np.ascontiguousarray(obs, dtype='<f4').tobytes()
  return '%016x' % fnv1a64(buf)


# 8-direction actions of gfootball's default action set, by angle sector
# (atan2(dy, dx), y grows downwards: 'top' is negative y).
_DIRS = [5, 6, 7, 8, 1, 2, 3, 4]  # right, bottom_right, bottom, bottom_left, left, top_left, top, top_right


def policy(rng, o):
  """Scripted, seeded policy over the raw observation of the controlled player."""
  if rng.random() < 0.15:
    return rng.randrange(19)
  ball = o['ball']
  active = o['active']
  if o['ball_owned_team'] == 0 and active >= 0 and o['ball_owned_player'] == active:
    if ball[0] > 0.7 and rng.random() < 0.7:
      return 12  # shot
    r = rng.random()
    if r < 0.1:
      return 13  # sprint
    if r < 0.65:
      return 5  # right
    return 4 if r < 0.825 else 6  # top_right / bottom_right
  me = o['left_team'][active] if active >= 0 else ball[:2]
  dx, dy = ball[0] - me[0], ball[1] - me[1]
  sector = int(round(math.atan2(dy, dx) / (math.pi / 4))) % 8
  return _DIRS[sector]


def make_env(scenario, representation, stacked, first_seed):
  import gfootball.env as football_env  # pylint: disable=g-import-not-at-top
  return football_env.create_environment(
      env_name=scenario, stacked=stacked, representation=representation,
      rewards='scoring,checkpoints',
      other_config_options={'game_engine_random_seed': first_seed})


def raw_info(env):
  o = env.unwrapped.observation()[0]
  return o, '%d-%d %d %d %d' % (
      o['score'][0], o['score'][1], o['game_mode'], o['ball_owned_team'], o['active'])


def first_engine_seed(seed):
  # seed * 1001: odd for odd trace seeds, so both values of gfootball's
  # reverse_team_processing (the first seed's parity) are covered.
  return seed * 1001


def run_env(scenario, seed, steps, representation, stacked, actions=None):
  """Runs one env for `steps` steps; returns (records, stats, seconds in env)."""
  kind = 'smm' if representation == 'extracted' else 's115'
  env = make_env(scenario, representation, stacked, first_engine_seed(seed))
  rng = random.Random(seed)
  cfg = env.unwrapped._config  # pylint: disable=protected-access
  records = []
  env_time = 0.0
  k = 0
  done = True
  step = 0
  while step < steps:
    if done:
      engine_seed = first_engine_seed(seed) + k
      cfg._values['game_engine_random_seed'] = engine_seed  # pylint: disable=protected-access
      t = time.perf_counter()
      obs = env.reset()
      env_time += time.perf_counter() - t
      records.append(('E', int(cfg['episode_number']), engine_seed,
                      int(bool(cfg['reverse_team_processing'])), obs_hash(obs, kind)))
      k += 1
    o, info_text = raw_info(env)
    if actions is None:
      a = policy(rng, o)
    else:
      a = actions[step]
    t = time.perf_counter()
    obs, reward, done, info = env.step(a)
    env_time += time.perf_counter() - t
    assert isinstance(reward, np.float32), type(reward)
    _, info_text = raw_info(env)
    records.append(('S', a, repr(float(reward)), int(info['score_reward']), int(bool(done)),
                    obs_hash(obs, kind), info_text))
    step += 1
  env.close()
  return records, env_time


def merge(scenario, seed, steps, smm, s115):
  """Checks run 2 against run 1 and builds the trace text."""
  assert len(smm) == len(s115), (len(smm), len(s115))
  lines = [
      '# golden trace from the real gfootball Python env (google-research/football '
      '%s, unmodified) via bench/football/golden_traces.py --only %s:%d (%d steps); '
      'numpy %s, python %d.%d' % (GFOOTBALL_COMMIT, scenario, seed, steps, np.__version__,
                                  sys.version_info[0], sys.version_info[1]),
      'scenario %s' % scenario,
      'seed %d' % seed,
  ]
  for i, (r1, r2) in enumerate(zip(smm, s115)):
    if r1[0] != r2[0] or r1[:-2 if r1[0] == 'S' else -1] != r2[:-2 if r2[0] == 'S' else -1] \
        or (r1[0] == 'S' and r1[-1] != r2[-1]):
      raise AssertionError(
          'DETERMINISM FAILURE %s seed %d record %d: SMM run %r vs simple115v2 run %r'
          % (scenario, seed, i, r1, r2))
    if r1[0] == 'E':
      lines.append('E %d %d %d %s %s' % (r1[1], r1[2], r1[3], r1[4], r2[4]))
    else:
      lines.append('S %d %s %d %d %s %s %s' % (r1[1], r1[2], r1[3], r1[4], r1[5], r2[5], r1[6]))
  return '\n'.join(lines) + '\n'


def stats(text):
  episodes = goals = ckpt = 0
  ends = {}
  prev = None
  for line in text.splitlines():
    f = line.split()
    if f[0] == 'E':
      episodes += 1
      prev = None
    elif f[0] == 'S':
      reward, score_reward, done = float(f[2]), int(f[3]), f[4] == '1'
      mode, owner = int(f[8]), int(f[9])
      if score_reward:
        goals += 1
      if reward != score_reward:
        ckpt += 1
      if done:
        if score_reward:
          why = 'goal'
        elif mode != 0:
          why = 'out_of_play'
        elif prev is not None and owner != -1 and owner != prev:
          why = 'possession'
        else:
          why = 'time'
        ends[why] = ends.get(why, 0) + 1
      if owner != -1:
        prev = owner
  return episodes, goals, ckpt, ends


def make_trace(scenario, seed, steps):
  t0 = time.perf_counter()
  smm, t_smm = run_env(scenario, seed, steps, 'extracted', True)
  actions = [r[1] for r in smm if r[0] == 'S']
  s115, t_s115 = run_env(scenario, seed, steps, 'simple115v2', False, actions)
  text = merge(scenario, seed, steps, smm, s115)
  return text, steps / t_smm, steps / t_s115, time.perf_counter() - t0


def main():
  p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
  p.add_argument('--out', default=os.path.join(
      os.path.dirname(os.path.abspath(__file__)), '..', '..', 'test', 'env', 'football', 'traces'))
  p.add_argument('--only', action='append', default=[],
                 help='SCENARIO:SEED (repeatable); default: all traces')
  p.add_argument('--steps', type=int, default=0, help='override the step budget')
  p.add_argument('--repeat', type=int, default=1,
                 help='make each trace N times in this process and fail unless identical')
  args = p.parse_args()

  sample = np.random.RandomState(0).randint(0, 4, size=5000).astype(np.uint8)
  sample[np.random.RandomState(1).rand(5000) < 0.7] = 0
  assert fnv1a64(sample.tobytes()) == fnv1a64_naive(sample.tobytes())
  assert fnv1a64(b'') == FNV_OFFSET and fnv1a64(b'a') == 0xaf63dc4c8601ec8c

  todo = TRACES
  if args.only:
    todo = [t for t in TRACES if '%s:%d' % (t[0], t[1]) in args.only]
    assert len(todo) == len(args.only), 'unknown trace in --only %r' % args.only
  os.makedirs(args.out, exist_ok=True)
  for scenario, seed, steps in todo:
    steps = args.steps or steps
    text, sps_smm, sps_s115, wall = make_trace(scenario, seed, steps)
    for _ in range(args.repeat - 1):
      again = make_trace(scenario, seed, steps)[0]
      if again != text:
        a, b = text.splitlines(), again.splitlines()
        i = next(i for i in range(min(len(a), len(b))) if a[i] != b[i])
        raise AssertionError('NOT DETERMINISTIC in-process: %s seed %d line %d:\n%s\n%s'
                             % (scenario, seed, i + 1, a[i], b[i]))
    path = os.path.join(args.out, '%s-seed%d.trace' % (scenario, seed))
    with open(path, 'w') as f:
      f.write(text)
    episodes, goals, ckpt, ends = stats(text)
    print('%s seed %d: %d steps, %d episodes, %d goals, %d steps with checkpoint reward, '
          'ends %s; env steps/s: SMM stacked %.0f, simple115v2 %.0f; wall %.0f s; %d bytes%s'
          % (scenario, seed, steps, episodes, goals, ckpt, ends, sps_smm, sps_s115, wall,
             len(text), ' (identical x%d in-process)' % args.repeat if args.repeat > 1 else ''),
          flush=True)


if __name__ == '__main__':
  main()
