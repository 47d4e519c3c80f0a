"""Shared helpers of the adversarial scenarios (python3 standard library only).

Every scenario starts its seedrl processes in sessions of their own, records
their ids, and on exit (normal, exception, SIGINT/SIGTERM) kills exactly those
process groups and removes its temporary directories.
"""

import atexit
import ctypes
import ctypes.util
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

_procs = []      # Popen objects this scenario started
_tmpdirs = []    # temporary directories to remove
_cleanups = []   # extra callables (umount, socket close), run first


def _cleanup():
    while _cleanups:
        fn = _cleanups.pop()
        try:
            fn()
        except Exception:  # cleanup must go on
            pass
    for p in _procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # its own session: pgid == pid
            except ProcessLookupError:
                pass
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
    for d in _tmpdirs:
        shutil.rmtree(d, ignore_errors=True)


def _on_signal(signum, _frame):
    _cleanup()
    sys.exit(128 + signum)


atexit.register(_cleanup)
signal.signal(signal.SIGTERM, _on_signal)
signal.signal(signal.SIGINT, _on_signal)
signal.signal(signal.SIGHUP, _on_signal)


def on_cleanup(fn):
    _cleanups.append(fn)


def tmpdir(tag):
    d = tempfile.mkdtemp(prefix=f"seedrl-adv-{tag}-")
    _tmpdirs.append(d)
    return d


def binary(path):
    """The seedrl binary under test, as an absolute path (exits when not executable)."""
    b = os.path.abspath(path)
    if not os.access(b, os.X_OK) or os.path.isdir(b):
        sys.exit(f"{b}: not an executable")
    return b


def spawn(args, log_path, fd_limit=None, env=None):
    """Starts a process in its own session with stdout+stderr to log_path."""
    out = open(log_path, "ab")
    pre = None
    if fd_limit is not None:
        import resource

        def pre():
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))
    p = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True, preexec_fn=pre, env=env)
    out.close()
    _procs.append(p)
    return p


def kill(p, sig=signal.SIGKILL):
    if p.poll() is None:
        try:
            os.killpg(p.pid, sig) if sig == signal.SIGKILL else os.kill(p.pid, sig)
        except ProcessLookupError:
            pass


def wait_exit(p, timeout):
    """Exit status as the shell reports it (128+N for signal N), or None on timeout."""
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return 128 - rc if rc < 0 else rc


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def wait_for(pred, timeout, step=0.05, proc=None):
    """Polls pred() until truthy (returns its value) or timeout / proc exit (None)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        if proc is not None and proc.poll() is not None:
            return pred() or None
        time.sleep(step)
    return None


def listening_port(log_path):
    m = re.search(r"remote actors: listening on [^ ]+:(\d+)", read_text(log_path))
    return int(m.group(1)) if m else None


def last_metrics(logdir):
    """The last complete line of metrics.jsonl as a dict, or {}."""
    text = read_text(os.path.join(logdir, "metrics.jsonl"))
    for line in reversed(text.splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return {}


def frames(logdir):
    return int(last_metrics(logdir).get("frames", 0))


def rss_kb(pid):
    for line in read_text(f"/proc/{pid}/status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def open_fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def result(scenario, trials, failures, numbers):
    """The one result line run.sh collects."""
    print(f"{scenario} | {trials} | {failures} | {numbers}", flush=True)


def note(msg):
    print(f"  [{os.path.basename(sys.argv[0])}] {msg}", file=sys.stderr, flush=True)


def learner_args(bin_, logdir, extra=()):
    """A small CartPole learner that takes remote actors on a free loopback port,
    kept light so several scenarios fit on 2 shared cores."""
    return [bin_, "train", "--env", "cartpole", "--logdir", logdir, "--max-frames", "1000000000",
            "--actors", "0", "--remote-actors", "127.0.0.1:0", "--log-interval-s", "0.5",
            "--torch-threads", "1", "--learner-cpus", "share", "--batch-size", "8", *extra]


def actor_args(bin_, port, actors=2, extra=()):
    return [bin_, "actor", "--connect", f"127.0.0.1:{port}", "--env", "cartpole", "--actors", str(actors),
            "--envs-per-actor", "4", *extra]


IN_CLOSE_WRITE, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x8, 0x80, 0x100, 0x200


class Inotify:
    """A minimal inotify watch on one directory (ctypes, no third-party package)."""

    def __init__(self, path, mask):
        self.libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        if self.libc.inotify_add_watch(self.fd, path.encode(), mask) < 0:
            raise OSError(ctypes.get_errno(), "inotify_add_watch " + path)

    def wait(self, names, timeout):
        """Blocks until an event on one of `names`; returns (name, mask) or None."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                continue
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            i = 0
            while i + 16 <= len(data):
                _wd, mask, _cookie, n = struct.unpack_from("iIII", data, i)
                name = data[i + 16:i + 16 + n].rstrip(b"\0").decode(errors="replace")
                i += 16 + n
                if name in names:
                    return name, mask

    def drain(self):
        """Drops the events queued so far."""
        try:
            while os.read(self.fd, 65536):
                pass
        except BlockingIOError:
            pass

    def close(self):
        os.close(self.fd)
