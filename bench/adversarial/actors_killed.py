#!/usr/bin/env python3
"""actors-killed: SIGKILL a random remote actor process every ~0.5 s and restart it.

    actors_killed.py BIN [--kills K] [--actors N] [--seed S]

A CartPole learner with remote actors only (`train --actors 0 --remote-actors`)
and N `seedrl actor` processes (2 connections x 4 envs each). K times: sleep
~0.5 s, SIGKILL one connected actor at random (waiting up to 10 s for one whose
connections the learner has logged, as a restarted one takes a moment to load),
start it again. A kill fails when the
learner is no longer running after it. At the end the learner must still be
alive, its frames must have grown after the last kill, and SIGINT must stop it
cleanly (status 0 or 130, the documented status of an interrupted run).
"""

import argparse
import os
import random
import signal
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="the seedrl binary")
    ap.add_argument("--kills", type=int, default=40)
    ap.add_argument("--actors", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    bin_ = c.binary(a.bin)
    rng = random.Random(a.seed)

    work = c.tmpdir("actors-killed")
    logdir = os.path.join(work, "run")
    llog = os.path.join(work, "learner.log")
    learner = c.spawn(c.learner_args(bin_, logdir), llog)
    port = c.wait_for(lambda: c.listening_port(llog), 90, proc=learner)
    if port is None:
        c.note("learner did not start:\n" + c.read_text(llog)[-2000:])
        c.result("actors-killed", a.kills, a.kills, "learner did not start")
        return 1

    def start_actor(i):
        return c.spawn(c.actor_args(bin_, port, actors=2, extra=["--seed", str(i)]),
                       os.path.join(work, f"actor{i}.log"))

    connected = lambda: c.read_text(llog).count(" connected: ")  # noqa: E731
    actors = [start_actor(i) for i in range(a.actors)]
    # An actor counts as connected once the learner has logged as many
    # connections as there were when it started, plus its own two (the
    # order among actors restarted together is approximate).
    ready_at = [2 * (i + 1) for i in range(a.actors)]
    started = c.wait_for(lambda: c.frames(logdir) > 0 and connected() >= 2 * a.actors, 90, proc=learner)
    f_start = c.frames(logdir)
    failures, died_at, restarts, unconnected = 0, None, 0, 0
    samples = [(time.monotonic(), f_start)]
    t0 = time.monotonic()
    for k in range(a.kills if started else 0):
        time.sleep(0.3 + 0.4 * rng.random())
        # Kill a connected actor: its slots and partial unrolls must be dropped.
        ready = c.wait_for(lambda: [i for i in range(len(actors)) if connected() >= ready_at[i]], 10, proc=learner)
        if not ready:
            unconnected += 1
            ready = list(range(len(actors)))
        i = rng.choice(ready)
        c.kill(actors[i], signal.SIGKILL)
        actors[i].wait()
        actors[i] = start_actor(i)
        ready_at[i] = max(ready_at) + 2
        restarts += 1
        samples.append((time.monotonic(), c.frames(logdir)))
        if learner.poll() is not None:
            failures += a.kills - k  # this kill and every later one
            died_at = k + 1
            break
    kill_s = time.monotonic() - t0
    f_after_kills = c.frames(logdir)
    # Frames must go on growing once the last actor is back.
    grew = c.wait_for(lambda: c.frames(logdir) > f_after_kills, 30, proc=learner) is not None
    f_end = c.frames(logdir)
    alive = learner.poll() is None
    # The longest time the frame counter stood still while actors were killed.
    stall, last_t, last_f = 0.0, samples[0][0], samples[0][1]
    for t, f in samples[1:]:
        if f > last_f:
            last_t, last_f = t, f
        stall = max(stall, t - last_t)
    c.kill(learner, signal.SIGINT)
    status = c.wait_exit(learner, 60)
    for p in actors:
        c.kill(p)
    clean = status in (0, 130)
    if not started or not grew:
        failures += 1
    if not clean:
        failures += 1
    log = c.read_text(llog)
    connects = log.count(" connected: ")
    gone = log.count(" gone: ")
    if status is None:
        status_text = "hung >60 s after SIGINT"
    else:
        status_text = f"exit {status}" + (f" (signal {status - 128})" if status > 128 and status != 130 else "")
    c.result("actors-killed", a.kills,
             failures,
             f"{restarts} kills in {kill_s:.0f} s; learner alive: {'yes' if alive else 'no (died after kill %s)' % died_at}; "
             f"frames {f_start} -> {f_after_kills} -> {f_end} (grew after last kill: {'yes' if grew else 'no'}); "
             f"longest frame stall while killing {stall:.1f} s; connections accepted {connects}, dropped {gone}"
             + (f" ({unconnected} kills found no connected actor)" if unconnected else "") + f"; SIGINT: {status_text}")
    if not clean or not alive:
        c.note("learner log tail:\n" + log[-3000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
