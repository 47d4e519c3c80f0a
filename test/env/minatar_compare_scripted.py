#!/usr/bin/env python3
"""Compares our Seaquest and Space Invaders with the reference implementation.

Runs the authors' MinAtar (github.com/kenjyoung/MinAtar, a checkout given as
the first argument) and our seedrl_env_tests "[.rollout-scripted]" case with the same
policies (random, always-action-k, a scripted controller per game, and that
controller with random actions mixed in) and compares mean episode return and
length (Welch t-test, 95% intervals) and their distributions (two-sample
Kolmogorov-Smirnov). The statistics come from minatar_compare.py beside it.
With --trace N it instead swaps the reference's numpy random stream for a
port of seedrl::Rng and requires our observation, reward and termination to
equal the reference's at every step of N episodes per case. Needs only numpy
(for the reference itself).

  python3 test/env/minatar_compare_scripted.py /tmp/MinAtar \
      --binary build/test/seedrl_env_tests [--episodes 1000]
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minatar_compare import interval, ks, run_ours, run_reference, welch  # noqa: E402

CAP = 3000  # both sides cut an episode here (see minatar_scripted_rollout_test.cc)

# (game, policy, sticky_action_prob, difficulty_ramping)
CASES = [
    ("seaquest", "random", 0.1, 1),
    ("seaquest", "const0", 0.1, 1),
    ("seaquest", "const4", 0.1, 1),
    ("seaquest", "const5", 0.1, 1),
    ("seaquest", "scripted", 0.1, 1),
    ("seaquest", "noisy", 0.1, 1),
    ("seaquest", "scripted", 0.0, 1),
    ("seaquest", "scripted", 0.1, 0),
    ("space_invaders", "random", 0.1, 1),
    ("space_invaders", "const0", 0.1, 1),
    ("space_invaders", "const5", 0.1, 1),
    ("space_invaders", "scripted", 0.1, 1),
    ("space_invaders", "noisy", 0.1, 1),
    ("space_invaders", "scripted", 0.0, 1),
    ("space_invaders", "scripted", 0.1, 0),
]


# ---- the scripted policies, the same as in minatar_scripted_rollout_test.cc -------
def seaquest_policy(s):
    sy = sx = 0
    for y in range(10):
        for x in range(10):
            if s[y, x, 0]:
                sy, sx = y, x
    facing_right = bool(sx > 0 and s[sy, sx - 1, 1])
    oxygen = int(s[9, :, 7].sum())
    divers = int(s[9, :, 8].sum())
    if divers > 0 and (oxygen <= 2 or divers == 6):
        return 2
    if sy == 0:
        return 4

    def enemy(y, x):
        return bool(s[y, x, 5] or s[y, x, 6])

    for x in range(10):
        if s[sy, x, 4] and abs(x - sx) <= 2:
            return 4 if sy < 8 else 2
    for d in range(1, 10):
        for x in (sx - d, sx + d):
            if 0 <= x <= 9 and enemy(sy, x):
                if (x > sx) == facing_right:
                    return 5
                return 3 if x > sx else 1
    best, ty, tx = 100, -1, -1
    for y in range(1, 9):
        for x in range(10):
            if s[y, x, 9] and abs(y - sy) + abs(x - sx) < best:
                best, ty, tx = abs(y - sy) + abs(x - sx), y, x
    if ty < 0:
        return 0
    if ty != sy:
        ny = sy - 1 if ty < sy else sy + 1
        if not any(enemy(ny, x) for x in range(max(0, sx - 2), min(9, sx + 2) + 1)):
            return 2 if ty < sy else 4
        return 0
    return 1 if tx < sx else 3 if tx > sx else 0


def space_invaders_policy(s):
    px = 0
    for x in range(10):
        if s[9, x, 0]:
            px = x

    def danger(x):
        return bool(s[6, x, 5] or s[7, x, 5] or s[8, x, 5] or s[9, x, 1] or s[8, x, 1])

    target = -1
    for d in range(10):
        for x in (px - d, px + d):
            if target < 0 and 0 <= x <= 9 and s[:, x, 1].any():
                target = x
    if danger(px):
        order = (px - 1, px + 1) if target <= px else (px + 1, px - 1)
        for x in order:
            if 0 <= x <= 9 and not danger(x):
                return 1 if x < px else 3
        return 0
    if target < 0:
        return 0
    if target == px:
        return 5
    if danger(px - 1 if target < px else px + 1):
        return 5
    return 1 if target < px else 3


SCRIPTED = {"seaquest": seaquest_policy, "space_invaders": space_invaders_policy}


# ---- exact replay: the reference driven by a port of seedrl::Rng ----------
M64 = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return x, z ^ (z >> 31)


def derive_seed(seed, index):
    x = seed ^ ((0xD1B54A32D192ED03 * (index + 1)) & M64)
    x, _ = splitmix64(x)
    return splitmix64(x)[1]


class PortRng:
    """xoshiro256** exactly as include/seedrl/util/rng.h, with the two
    numpy.random.RandomState calls the reference makes (rand, randint)."""

    def __init__(self, seed):
        self.s = []
        x = seed
        for _ in range(4):
            x, z = splitmix64(x)
            self.s.append(z)

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    def next(self):
        s = self.s
        result = (self._rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53

    def below(self, n):
        m = self.next() * n
        low = m & M64
        if low < n:
            t = ((1 << 64) - n) % n
            while low < t:
                m = self.next() * n
                low = m & M64
        return m >> 64

    def rand(self):
        return self.uniform()

    def randint(self, low, high=None):
        if high is None:
            low, high = 0, low
        return low + self.below(high - low)


def obs_hex(state):
    bits = np.asarray(state, dtype=np.uint8).reshape(-1)
    nib = bits[0::4] * 8 + bits[1::4] * 4 + bits[2::4] * 2 + bits[3::4]
    return "".join("0123456789abcdef"[v] for v in nib)


def reference_trace(minatar_dir, game, policy, sticky, ramping, episodes, seed):
    """The trace minatar_scripted_rollout_test.cc prints, produced by the reference."""
    sys.path.insert(0, minatar_dir)
    from minatar import Environment
    env = Environment(game, sticky_action_prob=sticky,
                      difficulty_ramping=bool(ramping))
    env.random = env.env.random = PortRng(seed)
    prng = PortRng(derive_seed(seed, 1))
    lines = []
    for _ in range(episodes):
        env.reset()
        lines.append("obs " + obs_hex(env.state()))
        n, done = 0, False
        while not done and n < CAP:
            if policy == "random":
                a = prng.below(6)
            elif policy.startswith("const"):
                a = int(policy[5:])
            elif policy == "noisy" and prng.uniform() < 0.25:
                a = prng.below(6)
            else:
                a = SCRIPTED[game](env.state())
            # Ours skips the sticky draw when p == 0; the reference draws anyway.
            r, done = env.act(a) if sticky > 0 else env.env.act(a)
            lines.append(f"step {a} {r:g} {int(done)}")
            lines.append("obs " + obs_hex(env.state()))
            n += 1
    return lines


def trace_check(args, game, policy, sticky, ramping, n):
    env = dict(os.environ, SEEDRL_ROLLOUT_TRACE="1",
               SEEDRL_ROLLOUT=f"minatar:{game},{policy},{n},{args.seed},{sticky},{ramping}")
    out = subprocess.run([args.binary, "[.rollout-scripted]"], env=env, check=True,
                         capture_output=True, text=True).stdout
    ours = [line for line in out.splitlines() if line.startswith(("obs ", "step "))]
    ref = reference_trace(args.minatar_dir, game, policy, sticky, ramping, n, args.seed)
    steps = sum(line.startswith("step ") for line in ref)
    for i, (a, b) in enumerate(zip(ref, ours)):
        if a != b:
            print(f"  first difference at trace line {i}:\n    reference {a}\n    ours      {b}")
            return False, steps
    if len(ref) != len(ours):
        print(f"  trace lengths differ: reference {len(ref)}, ours {len(ours)}")
        return False, steps
    return True, steps


def golden(minatar_dir, game, policy, sticky, ramping, episodes, seed):
    """The numbers golden_run() in minatar_scripted_policies.h computes, from the reference."""
    lines = reference_trace(minatar_dir, game, policy, sticky, ramping, episodes, seed)
    h, total_return, steps = 0xcbf29ce484222325, 0.0, 0
    prime = 0x100000001b3
    for line in lines:
        if line.startswith("obs "):
            for ch in line[4:]:
                h = ((h ^ int(ch, 16)) * prime) & M64
        else:
            _, _, r, done = line.split()
            h = ((h ^ (0x100 + int(float(r)) * 2 + int(done))) * prime) & M64
            total_return += float(r)
            steps += 1
    return total_return, steps, h


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("minatar_dir", help="checkout of github.com/kenjyoung/MinAtar")
    ap.add_argument("--binary", default="build/test/seedrl_env_tests")
    ap.add_argument("--episodes", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--policy", action="append", help="only these policies")
    ap.add_argument("--alpha", type=float, default=0.01,
                    help="flag a case when a p-value falls below this")
    ap.add_argument("--trace", type=int, default=0, metavar="EPISODES",
                    help="instead: replay the reference with a port of our Rng "
                         "and require identical observations, rewards and ends")
    ap.add_argument("--golden", nargs=6, metavar=("GAME", "POLICY", "STICKY", "RAMPING",
                                                  "EPISODES", "SEED"),
                    help="print the reference's golden_run() numbers for one case")
    args = ap.parse_args()

    if args.golden:
        game, policy, sticky, ramping, episodes, seed = args.golden
        ret, steps, h = golden(args.minatar_dir, game, policy, float(sticky), int(ramping),
                               int(episodes), int(seed))
        print(f"return {ret:g} steps {steps} hash 0x{h:016x}ull")
        return 0

    if args.trace:
        failed = 0
        for game, policy, sticky, ramping in CASES:
            if (args.game and game not in args.game) or (args.policy and policy not in args.policy):
                continue
            ok, steps = trace_check(args, game, policy, sticky, ramping, args.trace)
            failed += not ok
            print(f"{game}/{policy} p={sticky} ramp={ramping}: {args.trace} episodes, "
                  f"{steps} steps: {'identical' if ok else 'DIFFERENT'}")
            sys.stdout.flush()
        return 1 if failed else 0

    flagged, tests = 0, 0
    print(f"{'case':42s} {'metric':6s} {'reference (95% CI)':>28s} "
          f"{'ours (95% CI)':>28s} {'welch p':>8s} {'KS p':>6s}")
    for game, policy, sticky, ramping in CASES:
        if args.game and game not in args.game:
            continue
        if args.policy and policy not in args.policy:
            continue
        n = args.episodes
        t0 = time.time()
        ref = run_reference(args.minatar_dir, game, policy, sticky, ramping, n, args.seed, SCRIPTED)
        ours = run_ours(args.binary, game, policy, sticky, ramping, n, args.seed, "[.rollout-scripted]")
        name = f"{game}/{policy} p={sticky} ramp={ramping} n={n}"
        for i, metric in enumerate(("return", "length")):
            mr, mo, _, p = welch(ref[i], ours[i])
            (rl, rh), (ol, oh) = interval(ref[i]), interval(ours[i])
            _, pks = ks(ref[i], ours[i])
            overlap = rl <= oh and ol <= rh
            bad = p < args.alpha or pks < args.alpha or not overlap
            flagged += bad
            tests += 1
            print(f"{name:42s} {metric:6s} {mr:9.3f} [{rl:8.3f},{rh:8.3f}] "
                  f"{mo:9.3f} [{ol:8.3f},{oh:8.3f}] {p:8.3f} {pks:6.3f}"
                  f"{'  <-- differs' if bad else ''}")
        sys.stdout.flush()
        print(f"  ({time.time() - t0:.1f}s)", file=sys.stderr)
    print(f"{flagged} of {tests} comparisons flagged at alpha={args.alpha} "
          "(or non-overlapping 95% intervals)")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
