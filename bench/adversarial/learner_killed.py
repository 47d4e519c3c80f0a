#!/usr/bin/env python3
"""learner-killed: SIGKILL the learner at random times and during checkpoint writes, then --resume.

    learner_killed.py BIN [--trials T] [--checkpoint-every-s S] [--algos vtrace,r2d2] [--seed N]

One logdir per algorithm (the trials split between them) and a chain of runs
in it: a fresh `train --env cartpole` run, then, trial after trial, SIGKILL
the running learner and start it again with --resume. Even trials kill
at a random time (0.3-3 s after the run has progressed); odd trials kill the
moment the learner writes its checkpoint: an inotify watch on the logdir fires
on checkpoint.pt.tmp being created, closed after writing, or renamed over
checkpoint.pt, and the kill follows at once. After the last kill one more
resume runs, and SIGINT must stop it cleanly (status 0 or 130).

A trial fails when the resumed run does not start (exits by itself, or prints
no "resumed from ... at N frames" within 90 s), or when it loses more than one
checkpoint interval: the frames the killed run had reached (its last metrics
line) minus the frames it resumed at must not exceed the frames it made in its
last checkpoint interval (+0.5 s of slack for the learner's batch boundary).
"""

import argparse
import os
import random
import re
import signal
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402
from common import IN_CLOSE_WRITE, IN_CREATE, IN_MOVED_TO, Inotify  # noqa: E402

def metrics_since(path, offset):
    """(time, frames) of every metrics line written after `offset` bytes."""
    out = []
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            for line in f.read().decode(errors="replace").splitlines():
                m = re.search(r'"frames":\s*(\d+)', line)
                w = re.search(r'"wall_seconds":\s*([0-9.eE+-]+)', line)
                if m:
                    out.append((float(w.group(1)) if w else 0.0, int(m.group(1))))
    except OSError:
        pass
    return out


def chain(bin_, algo, trials, interval, rng, st):
    """One logdir: a fresh run, then `trials` kills each followed by --resume."""
    work = c.tmpdir(f"learner-killed-{algo}")
    logdir = os.path.join(work, "run")
    os.makedirs(logdir)
    ckpt = os.path.join(logdir, "checkpoint.pt")
    mpath = os.path.join(logdir, "metrics.jsonl")
    args = [bin_, "train", "--env", "cartpole", "--logdir", logdir, "--max-frames", "1000000000",
            "--actors", "2", "--envs-per-actor", "8", "--torch-threads", "1", "--learner-cpus", "share",
            "--checkpoint-every-s", str(interval), "--log-interval-s", "0.2"]
    if algo == "r2d2":
        args += ["--algo", "r2d2", "--min-replay", "50", "--replay-capacity", "2000", "--batch-size", "16",
                 "--unroll-length", "20", "--burn-in", "10", "--sequence-overlap", "10"]
    else:
        args += ["--batch-size", "8"]
    watch = Inotify(logdir, IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO)
    c.on_cleanup(watch.close)
    fails, lost_frames, lost_s, ckpt_kills = st["fails"], st["lost_frames"], st["lost_s"], st["ckpt_kills"]
    resumed_at = 0
    p = None
    for trial in range(trials + 1):
        log = os.path.join(work, f"run{trial}.log")
        offset = os.path.getsize(mpath) if os.path.exists(mpath) else 0
        t_spawn = time.monotonic()
        p = c.spawn(args + (["--resume"] if trial else []), log)
        if trial:
            m = c.wait_for(lambda: re.search(r"resumed from .* at (\d+) frames", c.read_text(log)), 90, proc=p)
            if m is None:
                fails.append(f"{algo} trial {trial}: resume did not start (exit {c.wait_exit(p, 0)}): "
                             + (c.read_text(log).strip().splitlines() or ["no output"])[-1][:200])
                c.kill(p)
                break
            st["started"].append(time.monotonic() - t_spawn)
            resumed = int(m.group(1))
            if resumed < resumed_at:
                fails.append(f"{algo} trial {trial}: resumed at {resumed} frames, before the previous resume at {resumed_at}")
            lost = max(0, prev_frames - resumed)
            allowed = prev_window
            lost_frames.append(lost)
            lost_s.append(lost / prev_fps if prev_fps > 0 else 0.0)
            if lost > allowed:
                fails.append(f"{algo} trial {trial}: lost {lost} frames, one interval made {allowed}")
            resumed_at = resumed
        if trial == trials:
            break
        # Let the run progress (and write at least one checkpoint of its own on the first run).
        c.wait_for(lambda: len(metrics_since(mpath, offset)) >= 2 and (trial or os.path.exists(ckpt)), 90, proc=p)
        if trial % 2 == 0:
            time.sleep(0.3 + 2.7 * rng.random())
            c.kill(p)
        else:
            # Kill as the temporary file appears, once it is written and
            # closed (before the rename), or as it is renamed over checkpoint.pt.
            target = ["create", "close_write", "rename"][st["write_kills"] % 3]
            st["write_kills"] += 1
            want = {"create": ("checkpoint.pt.tmp", IN_CREATE), "close_write": ("checkpoint.pt.tmp", IN_CLOSE_WRITE),
                    "rename": ("checkpoint.pt", IN_MOVED_TO)}[target]
            watch.drain()  # only a write that starts from now on
            deadline = time.monotonic() + 10 * interval + 30
            while time.monotonic() < deadline:
                ev = watch.wait({want[0]}, deadline - time.monotonic())
                if ev is None or ev[1] & want[1]:
                    break
            c.kill(p)
            if ev is not None:
                ckpt_kills[target] += 1
        p.wait()
        if p.returncode != -signal.SIGKILL:
            fails.append(f"{algo} trial {trial}: the run had exited (status {p.returncode}) before the kill: "
                         + (c.read_text(log).strip().splitlines() or ["no output"])[-1][:200])
            break
        # What the killed run had reached, and how much it made in its last interval.
        ms = metrics_since(mpath, offset)
        prev_frames = ms[-1][1] if ms else resumed_at
        t_end = ms[-1][0] if ms else 0.0
        before = [f for t, f in ms if t <= t_end - interval - 0.5]
        prev_window = prev_frames - (before[-1] if before else resumed_at)
        span = (ms[-1][0] - ms[0][0]) if len(ms) > 1 else 0.0
        prev_fps = (ms[-1][1] - ms[0][1]) / span if span > 0 else 0.0
    if p is not None and p.poll() is None:
        c.kill(p, signal.SIGINT)
        st["final"].append(c.wait_exit(p, 60))
        last_status = st["final"][-1]
        if last_status not in (0, 130):
            fails.append(f"{algo} final resume: SIGINT gave {last_status}")
    st["kills"] += trials
    st["random"] += (trials + 1) // 2
    st["leftovers"] += len([n for n in os.listdir(logdir) if n.endswith(".tmp")])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="the seedrl binary")
    ap.add_argument("--trials", type=int, default=20, help="kills in all, split over the algorithms")
    ap.add_argument("--checkpoint-every-s", type=float, default=1.0)
    ap.add_argument("--algos", default="vtrace,r2d2", help="one chain of runs per algorithm")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    bin_ = c.binary(a.bin)
    rng = random.Random(a.seed)
    interval = a.checkpoint_every_s
    algos = [x for x in a.algos.split(",") if x]
    st = {"fails": [], "lost_frames": [], "lost_s": [], "started": [], "final": [], "kills": 0, "random": 0,
          "leftovers": 0, "write_kills": 0, "ckpt_kills": {"create": 0, "close_write": 0, "rename": 0}}
    per = []
    for i, algo in enumerate(algos):
        n = a.trials // len(algos) + (1 if i < a.trials % len(algos) else 0)
        before = len(st["fails"])
        chain(bin_, algo, n, interval, rng, st)
        per.append(f"{algo} {n} kills, {len(st['fails']) - before} failed")
    ck = st["ckpt_kills"]
    c.result("learner-killed", st["kills"], len(st["fails"]),
             f"{'; '.join(per)}; checkpoint every {interval:g} s; {st['random']} kills at random times, "
             f"{st['kills'] - st['random']} at a checkpoint write ({ck['create']} at the .tmp's creation, "
             f"{ck['close_write']} after it was written, {ck['rename']} at the rename); "
             f"resumes that started: {len(st['started'])}/{st['kills']}; frames lost max {max(st['lost_frames'], default=0)} "
             f"({max(st['lost_s'], default=0):.2f} s of training; interval {interval:g} s); "
             f"final SIGINT: {', '.join('exit %s' % x for x in st['final'])}; .tmp files left: {st['leftovers']}")
    for f in st["fails"]:
        c.note(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
