#!/usr/bin/env python3
"""fd-flood: 1,100 idle TCP connections against a learner limited to 1024 descriptors.

    fd_flood.py BIN [--connections N] [--hold-s S] [--fd-limit L] [--variants default,wide]

A CartPole learner (remote actors, `ulimit -n` L, a checkpoint every second)
and one good `seedrl actor`. Then N idle connections to the learner's port,
none of which ever sends a byte, held for --hold-s seconds; a connection the
learner closes (its HELLO deadline, or a refusal) is opened again at once, so
the pressure stays. Variant "default" keeps --max-remote-connections at its
default, "wide" raises it above the descriptor limit (--max-remote-connections
4096), so that only the descriptor limit bounds the accepted sockets.

A variant fails when the learner dies, its frames stop growing during the
flood, it writes no checkpoint during the flood, the good actor is dropped,
a new actor cannot connect and train after the flood, or SIGINT does not stop
it cleanly (0 or 130).
"""

import argparse
import errno
import os
import re
import resource
import selectors
import signal
import socket
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402


class Flood:
    """Holds up to n idle connections, reopening any the peer closes."""

    def __init__(self, port, n):
        self.port, self.n = port, n
        self.sel = selectors.DefaultSelector()
        self.socks = set()
        self.opened = self.closed_by_peer = self.failed = 0
        self.peak = 0

    def _open(self):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", self.port))
        except BlockingIOError:
            pass
        except OSError:
            self.failed += 1
            s.close()
            return
        self.sel.register(s, selectors.EVENT_READ)
        self.socks.add(s)
        self.opened += 1

    def _drop(self, s):
        self.sel.unregister(s)
        self.socks.discard(s)
        s.close()

    def run(self, seconds, tick):
        end = time.monotonic() + seconds
        next_tick = time.monotonic()
        while time.monotonic() < end:
            while len(self.socks) < self.n:
                before = len(self.socks)
                self._open()
                if len(self.socks) == before:
                    break
            self.peak = max(self.peak, len(self.socks))
            for key, _ in self.sel.select(timeout=0.05):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:  # closed (or reset) by the learner: reopen
                    self.closed_by_peer += 1
                    self._drop(s)
            if time.monotonic() >= next_tick:
                tick()
                next_tick = time.monotonic() + 0.5

    def release(self):
        for s in list(self.socks):
            self._drop(s)


def variant(bin_, work, name, a):
    logdir = os.path.join(work, name)
    llog = os.path.join(work, f"{name}-learner.log")
    extra = ["--checkpoint-every-s", "1"]
    if name == "wide":
        extra += ["--max-remote-connections", "4096"]
    learner = c.spawn(c.learner_args(bin_, logdir, extra), llog, fd_limit=a.fd_limit)
    port = c.wait_for(lambda: c.listening_port(llog), 90, proc=learner)
    if port is None:
        return ["learner did not start"], f"{name}: learner did not start"
    actor_log = os.path.join(work, f"{name}-actor.log")
    actor = c.spawn(c.actor_args(bin_, port, actors=1), actor_log)
    c.wait_for(lambda: c.frames(logdir) > 0, 90, proc=learner)
    ck = os.path.join(logdir, "checkpoint.pt")
    c.wait_for(lambda: os.path.exists(ck), 30, proc=learner)
    f0 = c.frames(logdir)
    ck0 = os.path.getmtime(ck) if os.path.exists(ck) else 0.0
    fds = {"max": 0}

    def tick():
        n = c.open_fds(learner.pid)
        if n:
            fds["max"] = max(fds["max"], n)

    flood = Flood(port, a.connections)
    t0 = time.monotonic()
    flood.run(a.hold_s, tick)
    hold = time.monotonic() - t0
    f1 = c.frames(logdir)
    ck1 = os.path.getmtime(ck) if os.path.exists(ck) else 0.0
    alive_during = learner.poll() is None
    flood.release()
    # After the flood: a new actor connects and the run goes on.
    log_before = c.read_text(llog).count(" connected: ")
    actor2 = c.spawn(c.actor_args(bin_, port, actors=1, extra=["--seed", "2"]), os.path.join(work, f"{name}-actor2.log"))
    reconnect = c.wait_for(lambda: c.read_text(llog).count(" connected: ") > log_before, 30, proc=learner) is not None
    f2 = c.frames(logdir)
    grew_after = c.wait_for(lambda: c.frames(logdir) > f2, 20, proc=learner) is not None
    actor_ok = actor.poll() is None
    c.kill(actor, signal.SIGINT)
    c.kill(actor2, signal.SIGINT)
    c.wait_exit(actor, 30)
    c.wait_exit(actor2, 30)
    m = re.search(r"(\d+) connections", c.read_text(actor_log))
    actor_connects = int(m.group(1)) if m else None
    c.kill(learner, signal.SIGINT)
    status = c.wait_exit(learner, 60)
    log = c.read_text(llog)
    accept_fail = log.count("accept failed")
    fail = []
    if not alive_during:
        fail.append("learner died during the flood")
    if f1 <= f0:
        fail.append("frames stalled during the flood")
    if ck1 <= ck0:
        fail.append("no checkpoint during the flood")
    if not actor_ok or actor_connects != 1:
        fail.append(f"good actor dropped ({actor_connects} connections)")
    if not reconnect or not grew_after:
        fail.append("no new actor / no training after the flood")
    if status not in (0, 130):
        fail.append(f"SIGINT gave {status}")
    desc = (f"{name}: {flood.peak} held (opened {flood.opened}, {flood.closed_by_peer} closed by the learner) "
            f"for {hold:.0f} s; learner fds max {fds['max']}/{a.fd_limit}; frames {f0} -> {f1} during; "
            f"checkpoint during: {'yes' if ck1 > ck0 else 'no'}; 'accept failed' logged {accept_fail}x; "
            f"new actor after: {'yes' if reconnect and grew_after else 'no'}; exit {status}")
    if fail:
        c.note(f"{name} learner log tail:\n" + "\n".join(log.splitlines()[-8:]))
    return fail, desc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="the seedrl binary")
    ap.add_argument("--connections", type=int, default=1100)
    ap.add_argument("--hold-s", type=float, default=15)
    ap.add_argument("--fd-limit", type=int, default=1024)
    ap.add_argument("--variants", default="default,wide")
    a = ap.parse_args()
    bin_ = c.binary(a.bin)
    # This process holds the flood's sockets: raise its own limit above them.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.connections + 256
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(want, soft), hard) if hard != resource.RLIM_INFINITY else want, hard))
        except (ValueError, OSError) as e:
            if e.args and e.args[0] != errno.EPERM:
                raise
    work = c.tmpdir("fd-flood")
    variants = [v for v in a.variants.split(",") if v]
    failures, descs = 0, []
    for v in variants:
        fail, desc = variant(bin_, work, v, a)
        descs.append(desc + (f" [FAILED: {'; '.join(fail)}]" if fail else ""))
        failures += bool(fail)
    c.result("fd-flood", len(variants), failures, f"{a.connections} idle connections, ulimit -n {a.fd_limit}; "
             + " // ".join(descs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
