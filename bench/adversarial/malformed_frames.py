#!/usr/bin/env python3
"""malformed-frames: thousands of malformed protocol frames against a learner.

    malformed_frames.py BIN [--frames N] [--clients C] [--seed S]

A CartPole learner with remote actors and one good `seedrl actor`. C client
threads open connection after connection and send one malformed frame (or a
short sequence ending in one) on each: random bytes, zero / huge / wrong
lengths, truncated frames, unknown and wrong-direction types, HELLOs with every
field out of range or bit-flipped, and, after a valid handshake, STEPs of the
wrong size, with NaN/inf observations or rewards, bad flags, and frames of
other types. Half the connections wait for the learner's answer, half close at
once. Checks: the learner never dies, its RSS stays flat (end within 64 MiB of
the start of the attack), the good actor is never dropped (1 connection at the
end) and frames keep growing.
"""

import argparse
import os
import random
import signal
import socket
import struct
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402

HELLO, WELCOME, REJECT, STEP, ACTIONS, HEARTBEAT, GOODBYE = range(1, 8)
# Frames cut short on purpose: the learner rightly waits for the rest, so the
# client closes at once instead of waiting for an answer.
INCOMPLETE = {"truncated frame", "truncated hello", "hello dribbled", "truncated step"}
OBS = 4  # CartPole: float32[4], 2 discrete actions
NAN = struct.pack("<f", float("nan"))
INF = struct.pack("<f", float("inf"))


def frame(mtype, body, length=None):
    return struct.pack("<IB", len(body) + 1 if length is None else length, mtype) + body


def str16(b):
    return struct.pack("<H", len(b)) + b


def hello_body(k=1, version=2, dtype=0, shape=(OBS,), kind=0, n=2, bounds=b"", token=b"", name=b"adv",
               magic=b"SEEDRLAP", reserved=0, rank=None, settings=b""):
    rank = len(shape) if rank is None else rank
    return (magic + struct.pack("<HHIBB", version, reserved, k, dtype, rank)
            + b"".join(struct.pack("<I", d) for d in shape) + struct.pack("<BI", kind, n) + bounds
            + str16(token) + str16(name) + str16(settings))


def step_body(k, obs=None, rewards=None, flags=None):
    rewards = rewards if rewards is not None else b"\0\0\0\0" * k
    flags = flags if flags is not None else bytes([1] * k)
    obs = obs if obs is not None else b"\0" * (16 * k)
    return rewards + flags + obs


def pre_handshake(rng):
    """(name, bytes) sent on a fresh connection."""
    good = hello_body()
    choice = rng.randrange(22)
    if choice == 0:
        return "random bytes", rng.randbytes(rng.randrange(1, 300))
    if choice == 1:
        return "length 0", struct.pack("<IB", 0, HELLO)
    if choice == 2:
        return "huge length", struct.pack("<IB", rng.choice([0xFFFFFFFF, 0x80000000, 65537, 1 << 24]), HELLO) + rng.randbytes(64)
    if choice == 3:
        return "truncated frame", frame(HELLO, good, length=len(good) + 50)
    if choice == 4:
        return "wrong type first", frame(rng.choice([0, STEP, ACTIONS, WELCOME, REJECT, GOODBYE, 8, 255]), rng.randbytes(rng.randrange(0, 40)))
    if choice == 5:
        return "heartbeat first", frame(HEARTBEAT, b"")
    if choice == 6:
        return "bad magic", frame(HELLO, hello_body(magic=rng.randbytes(8)))
    if choice == 7:
        return "wrong version", frame(HELLO, hello_body(version=rng.choice([0, 1, 3, 0xFFFF])))
    if choice == 8:
        cut = rng.randrange(0, len(good))
        return "truncated hello", frame(HELLO, good[:cut])
    if choice == 9:
        return "trailing bytes", frame(HELLO, good + rng.randbytes(rng.randrange(1, 20)))
    if choice == 10:
        return "num_envs", frame(HELLO, hello_body(k=rng.choice([0, 65536, 65537, 0xFFFFFFFF, 4096])))
    if choice == 11:
        return "rank", frame(HELLO, hello_body(rank=rng.choice([9, 255, 3]), shape=(OBS,)))
    if choice == 12:
        return "shape", frame(HELLO, hello_body(shape=rng.choice([(0,), (1 << 24, 1 << 24), (1 << 25,), (16384, 16384), (65536,), ()])))
    if choice == 13:
        return "dtype/kind", frame(HELLO, hello_body(dtype=rng.choice([1, 2, 255]), kind=rng.choice([1, 2, 255])))
    if choice == 14:
        return "action n", frame(HELLO, hello_body(n=rng.choice([0, 1, 3, 65537, 0xFFFFFFFF])))
    if choice == 15:
        n = rng.choice([1, 2, 65536])
        return "continuous bounds", frame(HELLO, hello_body(kind=1, n=n, bounds=(NAN * n + INF * n)[: rng.choice([0, 8 * n])]))
    if choice == 16:
        return "token length", frame(HELLO, hello_body(token=b"x" * rng.choice([1025, 4096, 60000])))
    if choice == 17:
        return "name length", frame(HELLO, hello_body(name=rng.randbytes(rng.choice([257, 1000]))))
    if choice == 18:
        b = bytearray(good)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        return "bit-flipped hello", frame(HELLO, bytes(b))
    if choice == 19:
        # str16 lengths pointing past the frame
        body = good[:-len(str16(b"adv"))] + struct.pack("<H", 0xFFFF) + b"adv"
        return "str16 past end", frame(HELLO, body)
    if choice == 20:
        return "max control frame", frame(HELLO, rng.randbytes(65535))
    return "hello dribbled", None  # sent byte by byte, then dropped


def post_handshake(rng, k):
    """(name, bytes) sent after a valid HELLO with K envs."""
    first = frame(STEP, step_body(k))
    choice = rng.randrange(14)
    if choice == 0:
        return "step size", frame(STEP, step_body(k) + b"\0" * rng.choice([1, 4, 16]))
    if choice == 1:
        return "step short", frame(STEP, step_body(k)[: -rng.choice([1, 4, 16])])
    if choice == 2:
        return "nan obs", frame(STEP, step_body(k, obs=NAN * (OBS * k)))
    if choice == 3:
        return "inf obs", first + frame(STEP, step_body(k, obs=INF * (OBS * k), flags=bytes(k)))
    if choice == 4:
        return "nan reward", first + frame(STEP, step_body(k, rewards=NAN * k, flags=bytes(k)))
    if choice == 5:
        return "bad flags", frame(STEP, step_body(k, flags=bytes([rng.choice([3, 5, 8, 0x80, 0xFF])] * k)))
    if choice == 6:
        return "no FIRST", frame(STEP, step_body(k, flags=bytes(k)))
    if choice == 7:
        return "wrong type", frame(rng.choice([0, HELLO, WELCOME, REJECT, ACTIONS, GOODBYE, 9, 200]), rng.randbytes(rng.randrange(0, 64)))
    if choice == 8:
        return "huge step length", struct.pack("<IB", rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 1 << 28]), STEP) + rng.randbytes(128)
    if choice == 9:
        return "truncated step", frame(STEP, step_body(k), length=len(step_body(k)) + 1)[:-rng.randrange(1, 8)]
    if choice == 10:
        return "heartbeat body", frame(HEARTBEAT, rng.randbytes(rng.randrange(1, 32)))
    if choice == 11:
        return "length 0", struct.pack("<IB", 0, STEP)
    if choice == 12:
        return "random after steps", first + rng.randbytes(rng.randrange(1, 200))
    return "two steps then junk", first + first + rng.randbytes(rng.randrange(1, 64))


class Attack:
    def __init__(self, port, frames, clients, seed):
        self.port, self.total, self.clients, self.seed = port, frames, clients, seed
        self.sent = 0
        self.handshakes = 0
        self.connect_errors = 0
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.kinds = {}
        self.no_answer = {}  # kind -> connections the learner neither answered nor closed within 1 s

    def take(self):
        with self.lock:
            if self.sent >= self.total or self.stop.is_set():
                return False
            self.sent += 1
            return True

    def _recv_frame(self, s):
        head = b""
        while len(head) < 5:
            got = s.recv(5 - len(head))
            if not got:
                return None, b""
            head += got
        length, mtype = struct.unpack("<IB", head)
        body = b""
        while len(body) < length - 1:
            got = s.recv(min(65536, length - 1 - len(body)))
            if not got:
                break
            body += got
        return mtype, body

    def one(self, rng):
        s = socket.socket()
        s.settimeout(3)
        try:
            s.connect(("127.0.0.1", self.port))
        except OSError:
            with self.lock:
                self.connect_errors += 1
            s.close()
            return
        try:
            if rng.random() < 0.4:
                k = rng.choice([1, 2, 4])
                s.sendall(frame(HELLO, hello_body(k=k)))
                mtype, _ = self._recv_frame(s)
                if mtype != WELCOME:
                    return  # busy or refused: the frame still counts as sent
                with self.lock:
                    self.handshakes += 1
                name, data = post_handshake(rng, k)
            else:
                name, data = pre_handshake(rng)
            with self.lock:
                self.kinds[name] = self.kinds.get(name, 0) + 1
            if data is None:
                for b in frame(HELLO, hello_body()):
                    s.send(bytes([b]))
            else:
                s.sendall(data)
            if name not in INCOMPLETE and rng.random() < 0.5:  # wait for the learner's answer and close
                s.settimeout(1.0)
                try:
                    while True:
                        mtype, _ = self._recv_frame(s)
                        if mtype is None or mtype in (REJECT, GOODBYE):
                            break
                except socket.timeout:
                    with self.lock:
                        self.no_answer[name] = self.no_answer.get(name, 0) + 1
            elif rng.random() < 0.3:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST
        except OSError:
            pass
        finally:
            s.close()

    def worker(self, i):
        rng = random.Random(self.seed * 1000 + i)
        while self.take():
            self.one(rng)

    def run(self):
        threads = [threading.Thread(target=self.worker, args=(i,), daemon=True) for i in range(self.clients)]
        for t in threads:
            t.start()
        return threads


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="the seedrl binary")
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=240)
    a = ap.parse_args()
    bin_ = c.binary(a.bin)

    work = c.tmpdir("malformed")
    logdir = os.path.join(work, "run")
    llog, alog = os.path.join(work, "learner.log"), os.path.join(work, "actor.log")
    learner = c.spawn(c.learner_args(bin_, logdir), llog)
    port = c.wait_for(lambda: c.listening_port(llog), 90, proc=learner)
    if port is None:
        c.note("learner did not start:\n" + c.read_text(llog)[-2000:])
        c.result("malformed-frames", a.frames, 1, "learner did not start")
        return 1
    actor = c.spawn(c.actor_args(bin_, port, actors=1), alog)
    c.wait_for(lambda: c.frames(logdir) > 0, 90, proc=learner)
    time.sleep(3)  # let the learner's memory settle before measuring
    rss_start = c.rss_kb(learner.pid) or 0
    f_start = c.frames(logdir)

    attack = Attack(port, a.frames, a.clients, a.seed)
    t0 = time.monotonic()
    threads = attack.run()
    rss_max, crashed_after = rss_start, None
    while any(t.is_alive() for t in threads):
        time.sleep(0.2)
        if learner.poll() is not None:
            crashed_after = attack.sent
            attack.stop.set()
            break
        rss_max = max(rss_max, c.rss_kb(learner.pid) or 0)
        if time.monotonic() - t0 > a.max_seconds:
            attack.stop.set()
    for t in threads:
        t.join(10)
    attack_s = time.monotonic() - t0
    time.sleep(1)
    alive = learner.poll() is None
    rss_end = c.rss_kb(learner.pid) if alive else None
    f_mid = c.frames(logdir)
    grew = alive and c.wait_for(lambda: c.frames(logdir) > f_mid, 20, proc=learner) is not None
    actor_alive = actor.poll() is None
    c.kill(actor, signal.SIGINT)
    c.wait_exit(actor, 30)
    m = __import__("re").search(r"(\d+) connections", c.read_text(alog))
    actor_connects = int(m.group(1)) if m else None
    c.kill(learner, signal.SIGINT)
    status = c.wait_exit(learner, 60)

    checks = {
        "learner crashed": not alive,
        "RSS grew > 64 MiB": alive and rss_end is not None and rss_end - rss_start > 65536,
        "good actor dropped": not actor_alive or actor_connects != 1,
        "frames stalled": not grew,
        "unclean SIGINT exit": status not in (0, 130),
    }
    failed = [k for k, v in checks.items() if v]
    log = c.read_text(llog)
    c.result("malformed-frames", attack.sent, len(failed),
             f"{attack.sent} malformed frames on {attack.sent - attack.connect_errors} connections "
             f"({attack.handshakes} after a valid HELLO) in {attack_s:.0f} s; "
             f"learner crashes: {0 if alive else 1}{'' if alive else ' (after ~%d frames)' % crashed_after}; "
             f"RSS {rss_start // 1024} -> {('%d' % (rss_end // 1024)) if rss_end else '-'} MiB (max {rss_max // 1024}); "
             f"good actor connections: {actor_connects}; frames {f_start} -> {c.frames(logdir)}; "
             f"unanswered after 1 s: {sum(attack.no_answer.values())}; protocol errors logged: {log.count('protocol error') + log.count('refused:')}; SIGINT: exit {status}"
             + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    if attack.no_answer:
        c.note("connections neither answered nor closed within 1 s, by kind: " + repr(attack.no_answer))
    if not alive:
        c.note("learner log tail:\n" + log[-3000:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
