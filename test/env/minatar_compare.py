#!/usr/bin/env python3
"""Compares our MinAtar games with the reference implementation.

Runs the authors' MinAtar (github.com/kenjyoung/MinAtar, a checkout given as
the first argument) and our seedrl_env_tests "[.rollout]" case with the same
policies (random, always-action-k, a scripted controller per game, and that
controller with random actions mixed in), and compares mean episode return and length (Welch t-test, 95%
intervals) and the length distributions (two-sample Kolmogorov-Smirnov).
Needs only numpy (for the reference itself).

  python3 test/env/minatar_compare.py /tmp/MinAtar \
      --binary build/test/seedrl_env_tests [--episodes 1000]
"""
import argparse
import math
import os
import subprocess
import sys
import time

import numpy as np

CAP = 3000  # both sides cut an episode here (see minatar_rollout_test.cc)

# (game, policy, sticky_action_prob, difficulty_ramping)
# const and random Breakout/Freeway cases are nearly deterministic (e.g. the
# ball always misses a still paddle after 6 frames) but pin those rules down.
CASES = [
    ("breakout", "random", 0.1, 1),
    ("breakout", "const0", 0.1, 1),
    ("breakout", "scripted", 0.1, 1),
    ("breakout", "noisy", 0.1, 1),
    ("breakout", "noisy", 0.0, 1),
    ("freeway", "random", 0.1, 1),
    ("freeway", "const0", 0.1, 1),
    ("freeway", "const2", 0.1, 1),
    ("freeway", "scripted", 0.1, 1),
    ("freeway", "noisy", 0.1, 1),
    ("asterix", "random", 0.1, 1),
    ("asterix", "const0", 0.1, 1),
    ("asterix", "const2", 0.1, 1),
    ("asterix", "scripted", 0.1, 1),
    ("asterix", "noisy", 0.1, 1),
    ("asterix", "scripted", 0.0, 0),
    ("asterix", "noisy", 0.0, 0),
    ("asterix", "scripted", 0.3, 1),
]


# ---- the scripted policies, the same as in minatar_rollout_test.cc --------
def breakout_policy(s):
    paddle = ball = 0
    for x in range(10):
        if s[9, x, 0]:
            paddle = x
    for y in range(10):
        for x in range(10):
            if s[y, x, 1]:
                ball = x
    return 1 if ball < paddle else 3 if ball > paddle else 0


def freeway_policy(s):
    y = 9
    for r in range(10):
        if s[r, 4, 0]:
            y = r
    for x in (3, 4, 5):
        if y > 0 and s[y - 1, x, 1]:
            return 0
    return 2


def asterix_policy(s):
    py = px = 0
    for y in range(10):
        for x in range(10):
            if s[y, x, 0]:
                py, px = y, x
    for x in range(10):
        if s[py, x, 1] and abs(x - px) <= 2:
            return 2 if py > 1 else 4
    best, gy, gx = 100, -1, -1
    for y in range(10):
        for x in range(10):
            if s[y, x, 3] and abs(y - py) + abs(x - px) < best:
                best, gy, gx = abs(y - py) + abs(x - px), y, x
    if gy < 0:
        return 0
    if gy < py:
        return 2
    if gy > py:
        return 4
    if gx < px:
        return 1
    if gx > px:
        return 3
    return 0


SCRIPTED = {"breakout": breakout_policy, "freeway": freeway_policy,
            "asterix": asterix_policy}


def run_reference(minatar_dir, game, policy, sticky, ramping, episodes, seed,
                  scripted=None):
    """Episode returns and lengths from the reference; `scripted` maps a
    game to its controller (this file's SCRIPTED unless given)."""
    scripted = SCRIPTED if scripted is None else scripted
    sys.path.insert(0, minatar_dir)
    from minatar import Environment
    env = Environment(game, sticky_action_prob=sticky,
                      difficulty_ramping=bool(ramping))
    env.seed(seed)
    prng = np.random.RandomState(seed + 7919)
    returns, lengths = [], []
    for _ in range(episodes):
        env.reset()
        ret, n, done = 0.0, 0, False
        while not done and n < CAP:
            if policy == "random":
                a = prng.randint(6)
            elif policy.startswith("const"):
                a = int(policy[5:])
            elif policy == "noisy" and prng.rand() < 0.25:
                a = prng.randint(6)
            else:
                a = scripted[game](env.state())
            r, done = env.act(a)
            ret += r
            n += 1
        returns.append(ret)
        lengths.append(n)
    return np.array(returns), np.array(lengths)


def run_ours(binary, game, policy, sticky, ramping, episodes, seed,
             case="[.rollout]"):
    """The same rollouts from our seedrl_env_tests `case`."""
    env = dict(os.environ,
               SEEDRL_ROLLOUT=f"minatar:{game},{policy},{episodes},{seed},{sticky},{ramping}")
    out = subprocess.run([binary, case], env=env, check=True,
                         capture_output=True, text=True).stdout
    rows = [line.split() for line in out.splitlines() if line.startswith("episode ")]
    if len(rows) != episodes:
        raise RuntimeError(f"expected {episodes} episodes, got {len(rows)}:\n{out}")
    return (np.array([float(r[2]) for r in rows]),
            np.array([float(r[3]) for r in rows]))


# ---- statistics without scipy -----------------------------------------------
def _betacf(a, b, x):
    # Continued fraction for the incomplete beta function (Lentz's method).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1.0) < 1e-14:
            break
    return h


def betainc(a, b, x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log(1.0 - x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t, df):
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile_975(df):
    lo, hi = 0.0, 100.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if t_two_sided_p(mid, df) > 0.05:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def welch(a, b):
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    if va + vb == 0.0:
        return ma, mb, 0.0, 1.0 if ma == mb else 0.0
    t = (ma - mb) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return ma, mb, t, t_two_sided_p(t, df)


def interval(a):
    if a.var() == 0.0:
        return a.mean(), a.mean()
    h = t_quantile_975(len(a) - 1) * a.std(ddof=1) / math.sqrt(len(a))
    return a.mean() - h, a.mean() + h


def ks(a, b):
    xs = np.union1d(a, b)
    fa = np.searchsorted(np.sort(a), xs, side="right") / len(a)
    fb = np.searchsorted(np.sort(b), xs, side="right") / len(b)
    d = float(np.abs(fa - fb).max())
    ne = len(a) * len(b) / (len(a) + len(b))
    lam = (math.sqrt(ne) + 0.12 + 0.11 / math.sqrt(ne)) * d
    if lam < 1e-3:
        return d, 1.0
    p = 2.0 * sum((-1) ** (j - 1) * math.exp(-2.0 * j * j * lam * lam) for j in range(1, 101))
    return d, min(max(p, 0.0), 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("minatar_dir", help="checkout of github.com/kenjyoung/MinAtar")
    ap.add_argument("--binary", default="build/test/seedrl_env_tests")
    ap.add_argument("--episodes", type=int, default=1000)
    ap.add_argument("--freeway-episodes", type=int, default=200,
                    help="Freeway episodes are 2501 steps; fewer keep the run short")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--policy", action="append", help="only these policies")
    ap.add_argument("--alpha", type=float, default=0.01,
                    help="flag a case when a p-value falls below this")
    args = ap.parse_args()

    flagged, tests = 0, 0
    header = (f"{'case':34s} {'metric':6s} {'reference (95% CI)':>28s} "
              f"{'ours (95% CI)':>28s} {'welch p':>8s} {'KS p':>6s}")
    print(header)
    for game, policy, sticky, ramping in CASES:
        if args.game and game not in args.game:
            continue
        if args.policy and policy not in args.policy:
            continue
        n = args.freeway_episodes if game == "freeway" else args.episodes
        t0 = time.time()
        ref = run_reference(args.minatar_dir, game, policy, sticky, ramping, n, args.seed)
        ours = run_ours(args.binary, game, policy, sticky, ramping, n, args.seed)
        name = f"{game}/{policy} p={sticky} ramp={ramping} n={n}"
        for i, metric in enumerate(("return", "length")):
            mr, mo, _, p = welch(ref[i], ours[i])
            (rl, rh), (ol, oh) = interval(ref[i]), interval(ours[i])
            _, pks = ks(ref[i], ours[i])
            overlap = rl <= oh and ol <= rh
            bad = p < args.alpha or pks < args.alpha or not overlap
            flagged += bad
            tests += 1
            print(f"{name:34s} {metric:6s} {mr:9.3f} [{rl:8.3f},{rh:8.3f}] "
                  f"{mo:9.3f} [{ol:8.3f},{oh:8.3f}] {p:8.3f} {pks:6.3f}"
                  f"{'  <-- differs' if bad else ''}")
        sys.stdout.flush()
        print(f"  ({time.time() - t0:.1f}s)", file=sys.stderr)
    print(f"{flagged} of {tests} comparisons flagged at alpha={args.alpha} "
          "(or non-overlapping 95% intervals)")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
