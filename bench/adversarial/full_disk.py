#!/usr/bin/env python3
"""full-disk: train into a small tmpfs until it fills.

    full_disk.py BIN [--size-kb N] [--free-kb A,B:S,...] [--hidden H] [--timeout-s S]

Needs root (mount -t tmpfs). One trial per --free-kb value: a fresh tmpfs of
--size-kb, a filler file that leaves that much free, and a CartPole run with
its --logdir there (metrics every 0.05 s, a checkpoint of ~800 KiB every 0.5 s,
or every S s for FREE:S; 0 = only at the end), so the disk fills within
seconds: at the start (0 KiB), at the first checkpoint (64), at the second
(1024), or through metrics and event files with no periodic checkpoint (96:0).
"Full" is the first of: free space under 8 KiB (polled every 10 ms), or a
failed checkpoint write (inotify sees checkpoint.pt.tmp deleted instead of
renamed). A trial fails when the run is still running 10 s after the disk
filled (or --timeout-s after its start), exits 0 or by a signal, does not
print exactly one error line naming a file on the full disk, or leaves a
checkpoint that `eval --episodes 1` cannot load.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402
from common import IN_DELETE, Inotify  # noqa: E402


def mount_tmpfs(path, size_kb):
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", path], capture_output=True, text=True)
    if r.returncode != 0:
        raise OSError(r.stderr.strip() or "mount failed")

    def umount():
        subprocess.run(["umount", "-l", path], capture_output=True)
    c.on_cleanup(umount)
    return umount


def free_bytes(path):
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


def fill(path, leave):
    """A filler file that leaves `leave` bytes free."""
    filler = os.path.join(path, "filler")
    with open(filler, "wb") as f:
        chunk = b"\0" * 4096
        while free_bytes(path) > leave + 4096:
            try:
                f.write(chunk)
                f.flush()
            except OSError:
                break
    # Fine-tune down to the page.
    while free_bytes(path) > leave:
        try:
            with open(filler, "ab") as f:
                f.write(b"\0" * 4096)
        except OSError:
            break


def trial(bin_, work, i, size_kb, free_kb, every_s, hidden, timeout_s):
    mnt = os.path.join(work, f"mnt{i}")
    os.makedirs(mnt)
    umount = mount_tmpfs(mnt, size_kb)
    try:
        logdir = os.path.join(mnt, "run")
        os.makedirs(logdir)  # before the filler, so that the watch has a directory
        fill(mnt, free_kb * 1024)
        watch = Inotify(logdir, IN_DELETE)
        log = os.path.join(work, f"run{i}.log")  # outside the full disk
        t0 = time.monotonic()
        p = c.spawn([bin_, "train", "--env", "cartpole", "--logdir", logdir, "--max-frames", "1000000000",
                     "--actors", "2", "--envs-per-actor", "8", "--torch-threads", "1", "--learner-cpus", "share",
                     "--hidden", *hidden.split(","), "--log-interval-s", "0.05", "--checkpoint-every-s", str(every_s)],
                    log)
        t_full, why_full = None, None
        while p.poll() is None:
            now = time.monotonic()
            if t_full is None:
                if free_bytes(mnt) < 8192:
                    t_full, why_full = now, "free space"
                # A checkpoint's temporary file deleted, not renamed: its write failed.
                elif watch.wait({"checkpoint.pt.tmp"}, 0.01):
                    t_full, why_full = time.monotonic(), "checkpoint write"
            else:
                time.sleep(0.01)
            if now - t0 > timeout_s or (t_full is not None and now - t_full > 10):
                break
        watch.close()
        status = c.wait_exit(p, 0.5)
        t_exit = time.monotonic()
        hung = status is None
        if hung:
            c.kill(p)
            p.wait()
        out = c.read_text(log)
        lines = [ln for ln in out.split("\n") if ln.strip()]
        errors = [ln for ln in lines if re.search(r"\berror\b|\[error\]|\[critical\]", ln, re.I)]
        names_file = any(mnt in ln for ln in errors)
        ck = os.path.join(logdir, "checkpoint.pt")
        loads = None
        if os.path.exists(ck):
            r = subprocess.run([bin_, "eval", "--checkpoint", ck, "--episodes", "1"], capture_output=True, timeout=120)
            loads = r.returncode == 0
        after_full = (t_exit - t_full) if t_full is not None else None
        fail = []
        if hung:
            fail.append("still running 10 s after the disk filled" if t_full is not None
                        else f"still running after {timeout_s:g} s, disk never full")
        elif status == 0:
            fail.append("exit 0")
        elif status > 128:
            fail.append(f"signal {status - 128}")
        if len(errors) != 1 or not names_file:
            fail.append(f"{len(errors)} error lines" + ("" if names_file else ", none naming a file"))
        if loads is False:
            fail.append("checkpoint does not load")
        label = f"free {free_kb} KiB" + (", no periodic checkpoint" if every_s == 0 else "")
        desc = (f"{label}: {'still running' if hung else 'exit %s' % status} at {t_exit - t0:.1f} s"
                + (f" ({after_full:.1f} s after full, by {why_full})" if after_full is not None else " (full not seen)")
                + f", checkpoint {'loads' if loads else 'none' if loads is None else 'BROKEN'}")
        return fail, label, desc, (errors[-1] if errors else (lines[-1] if lines else ""))[:200], after_full, t_exit - t0
    finally:
        umount()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="the seedrl binary")
    ap.add_argument("--size-kb", type=int, default=2048)
    ap.add_argument("--free-kb", default="0,64,1024,96:0",
                    help="one trial per KiB-free value; FREE:S sets --checkpoint-every-s S (default 0.5)")
    ap.add_argument("--hidden", default="256,256", help="a checkpoint of ~800 KiB")
    ap.add_argument("--timeout-s", type=float, default=90)
    a = ap.parse_args()
    bin_ = c.binary(a.bin)
    specs = [(int(x.split(":")[0]), float(x.split(":")[1]) if ":" in x else 0.5) for x in a.free_kb.split(",")]
    if os.geteuid() != 0:
        c.result("full-disk", 0, 0, "skipped: needs root to mount a tmpfs")
        return 0
    work = c.tmpdir("full-disk")
    failures, descs, notes, worst = 0, [], [], 0.0
    for i, (free_kb, every_s) in enumerate(specs):
        try:
            fail, label, desc, last, after_full, total = trial(bin_, work, i, a.size_kb, free_kb, every_s, a.hidden,
                                                               a.timeout_s)
        except OSError as e:
            c.result("full-disk", 0, 0, f"skipped: cannot mount a tmpfs ({e})")
            return 0
        worst = max(worst, after_full if after_full is not None else total)
        descs.append(desc)
        if fail:
            failures += 1
            notes.append(f"{label}: {', '.join(fail)}; last error: {last}")
        else:
            notes.append(f"{label} ok: {last}")
    c.result("full-disk", len(specs), failures,
             f"tmpfs {a.size_kb} KiB, --hidden {a.hidden}; slowest exit {worst:.1f} s after the disk filled; "
             + "; ".join(descs))
    for n in notes:
        c.note(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
