#!/usr/bin/env python3
"""bad-inputs: bad flags, config files, checkpoints and directories, each run once.

    bad_inputs.py BIN [--timeout-s S] [--jobs J] [--only SUBSTRING] [--list]

Every case must end in exactly one line of output (stdout and stderr together,
as test/cli/one_line_error.h checks) and a nonzero exit status, without a
signal and within the timeout. Each case runs with its data segment limited to
3 GiB (RLIMIT_DATA), so a case that reads an endless file fails by itself
rather than taking the machine's memory. Train cases that might be accepted
carry --max-frames 3000, so that an input wrongly accepted shows as exit 0
rather than as a hang. Cases marked "(may pass)" (a bit flip behind a valid
header can land in tensor data and load) may also exit 0. J cases run at once
(each mostly waits on LibTorch's start-up); a case still running after S
seconds counts as a hang. The failing cases are printed after the result line;
"log lines, then the error" marks a run that printed start-up lines before its
one error line (still a failure of the one-line rule).
"""

import argparse
import concurrent.futures
import os
import random
import resource
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common as c  # noqa: E402

HELD = []  # sockets the cases need held open while they run
HEADER = 28  # checkpoint header: magic[8], u64 index length, u64 data length, u32 CRC-32C (src/io/checkpoint.cc)


def limit_memory():
    resource.setrlimit(resource.RLIMIT_DATA, (3 << 30, 3 << 30))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.setsid()


def run_case(args, timeout, cwd=None):
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         preexec_fn=limit_memory, cwd=cwd)
    try:
        out, _ = p.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        hung = True
    return p.returncode, out.decode(errors="replace"), hung, time.monotonic() - t0


class Files:
    """The bad files the cases point at, all under one temporary directory."""

    def __init__(self, bin_, work):
        self.bin, self.work = bin_, work
        self.n = 0

    def path(self, name):
        return os.path.join(self.work, name)

    def write(self, name, data):
        p = self.path(name)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return p

    def fresh_logdir(self):
        self.n += 1
        return self.path(f"logdir{self.n}")

    def logdir_with_checkpoint(self, data=None, special=None):
        """A logdir whose checkpoint.pt holds `data` (or is a directory / fifo / link loop)."""
        d = self.fresh_logdir()
        os.makedirs(d)
        ck = os.path.join(d, "checkpoint.pt")
        if special == "dir":
            os.makedirs(ck)
        elif special == "fifo":
            os.mkfifo(ck)
        elif special == "loop":
            os.symlink(ck, ck)
        else:
            with open(ck, "wb") as f:
                f.write(data)
        return d


def make_checkpoint(bin_, work):
    logdir = os.path.join(work, "good")
    rc, out, hung, _ = run_case([bin_, "train", "--env", "cartpole", "--max-frames", "20000", "--actors", "2",
                                 "--torch-threads", "1", "--logdir", logdir], 180)
    ck = os.path.join(logdir, "checkpoint.pt")
    if rc != 0 or not os.path.exists(ck):
        sys.exit(f"could not train the reference checkpoint (status {rc}):\n{out[-2000:]}")
    return ck


def cases(bin_, f, ck):
    """(name, argv) of every case."""
    good = open(ck, "rb").read()
    rng = random.Random(7)

    def train(*extra, logdir=None, env="cartpole"):
        return [bin_, "train", "--env", env, "--max-frames", "3000", "--actors", "2", "--torch-threads", "1",
                "--logdir", f.fresh_logdir() if logdir is None else logdir, *extra]

    def sac(*extra):
        """A SAC run on Pendulum that 3000 frames suit (SAC's defaults wait 10,000 steps), with `extra`."""
        quick = {"--random-steps": "500", "--min-replay": "500", "--critic-threads": "1"}
        fill = [a for k, v in quick.items() if k not in extra for a in (k, v)]
        return train("--algo", "sac", *fill, *extra, env="pendulum")

    out = []
    add = lambda name, argv: out.append((name, argv))  # noqa: E731

    # --- commands and flags -------------------------------------------------
    add("no command", [bin_])
    add("unknown command", [bin_, "frobnicate"])
    add("unknown flag", train("--frobnicate", "1"))
    add("flag without value", train("--actors"))
    add("positional junk", train("junk"))
    for flag, values in {
        "--actors": ["-1", "abc", "1e99", "99999999999999999999", "2.5", ""],
        "--max-frames": ["0", "-5", "nan", "99999999999999999999", "1e30"],
        "--learning-rate": ["nan", "inf", "-1", "0", "-nan", "1e-400x"],
        "--discount": ["2", "nan", "-0.5"],
        "--entropy-cost": ["nan", "-inf"],
        "--batch-size": ["0", "-1", "1000000000"],
        "--unroll-length": ["0", "-3", "abc"],
        "--envs-per-actor": ["0", "99999999999"],
        "--hidden": ["0", "-64", "64,abc", "99999999"],
        "--log-interval-s": ["0", "nan", "-1"],
        "--checkpoint-every-s": ["nan", "-1", "inf"],
        "--seed": ["abc", "-1x"],
        "--env": ["nosuch", "\udcff\udcfe", "cartpole\x01", "x" * 100000],
        "--model": ["resnet9000", "minatar"],
        "--optimizer": ["sgd"],
        "--precision": ["fp16"],
        "--device": ["cuda", "cuda:7", "tpu"],
        "--devices": ["foo", "cuda:0,cuda:1"],
        "--inference-devices": ["cuda:9"],
        "--learner-devices": ["gpu0", ","],
        "--learner-cpus": ["many"],
        "--ppo-clip": ["1.5", "nan"],
        "--epochs": ["0", "-2"],
        "--queue-capacity": ["-1"],
        "--inference-batch": ["-1"],
        "--inference-timeout-us": ["-1", "nan"],
        "--frame-stack": ["0", "65"],
        "--action-repeat": ["0"],
        "--time-limit": ["-1"],
        "--reward-clip": ["nan", "-1"],
        "--remote-actors": ["127.0.0.1:99999", "garbage", "[::1", "10.255.255.1:7000", "256.1.1.1:7000"],
        "--remote-timeout-s": ["0", "nan"],
        "--max-remote-connections": ["0", "-1"],
        "--algo": ["ppo"],
        "--lstm-size": ["0"],
        "--replay-capacity": ["1000000000000"],
        "--torch-threads": ["0", "100000"],
        # Beyond a 32-bit float, or below its smallest normal: NaN or nothing in the learner.
        "--init-temperature": ["1e39"],
        "--reward-scale": ["1e39", "1e-50"],
        "--target-entropy": ["1e39", "-1e39", "high"],
        "--tau": ["1e-50"],
        # Pacing that stalls the run or leaves the learner (almost) nothing to do.
        "--replay-ratio": ["1e30", "1e-30"],
        "--min-replay": ["5000"],
        "--random-steps": ["3000", "5000"],
    }.items():
        for v in values:
            extra = [flag, v]
            if flag == "--replay-capacity":
                extra = ["--algo", "r2d2", flag, v]
            if flag == "--lstm-size":
                extra = ["--lstm", flag, v]
            sac_only = flag in ("--init-temperature", "--target-entropy", "--tau", "--replay-ratio", "--min-replay",
                                "--random-steps")
            add(f"{flag} {v[:20]!r}", sac(*extra) if sac_only else train(*extra))
    # Flags the chosen algorithm or the env's family would ignore.
    for name, extra in {
        "r2d2 with --entropy-cost": ["--algo", "r2d2", "--entropy-cost", "0.1"],
        "vtrace with --tau": ["--tau", "0.01"],
        "vtrace with --n-step": ["--n-step", "3"],
        "sac with --ppo-clip": ["--algo", "sac", "--ppo-clip", "0.1"],
        "sac with --epsilon": ["--algo", "sac", "--epsilon", "0.1"],
        "cartpole with --screen-size": ["--screen-size", "64"],
        "cartpole with --sticky-action-prob": ["--sticky-action-prob", "0.25"],
        "cartpole with --football-obs": ["--football-obs", "simple115v2"],
        "cartpole with --football-rewards": ["--football-rewards", "scoring"],
        "sac with --model minatar": ["--model", "minatar"],
        "sac with --model impala": ["--model", "impala"],
        "sac --fixed-temperature with --target-entropy": ["--fixed-temperature", "--target-entropy", "-2"],
        "sac --learn-temperature --fixed-temperature": ["--learn-temperature", "--fixed-temperature"],
    }.items():
        if name.startswith("sac"):
            add(name, sac(*(extra[2:] if extra[:2] == ["--algo", "sac"] else extra)))
        else:
            add(name, train(*extra))
    add("--actors 0 without remote", train("--actors", "0"))
    add("--token-file missing", train("--remote-actors", "127.0.0.1:0", "--token-file", f.path("nope")))
    add("--token-file empty", train("--remote-actors", "127.0.0.1:0", "--token-file", f.write("empty_token", "")))
    add("--token-file 2 KiB", train("--remote-actors", "127.0.0.1:0", "--token-file", f.write("big_token", "x" * 2048)))
    add("--token-file /dev/zero", train("--remote-actors", "127.0.0.1:0", "--token-file", "/dev/zero"))
    add("--token-file fifo", train("--remote-actors", "127.0.0.1:0", "--token-file", fifo(f, "token_fifo")))
    add("--token-file directory", train("--remote-actors", "127.0.0.1:0", "--token-file", f.work))

    # --- config files ---------------------------------------------------------
    # Keys the train() command line does not set (the command line wins over
    # the file, so a bad value under such a key would never be read).
    configs = {
        "string for int": 'batch-size = "many"\n',
        "string for float": 'learning-rate = "fast"\n',
        "string for list": 'hidden = "64"\n',
        "mixed list": 'hidden = [64, "x"]\n',
        "int for bool": "lstm = 3\n",
        "float for int": "batch-size = 1.5\n",
        "int overflow": "batch-size = 99999999999999999999\n",
        "nan": "learning-rate = nan\n",
        "inf": "learning-rate = inf\n",
        "negative": "discount = -0.1\n",
        "unknown key": "frobnicate = 1\n",
        "table": "[train]\nbatch-size = 4\n",
        "missing value": "batch-size =\n",
        "no equals": "batch-size 4\n",
        "duplicate key": "batch-size = 2\nbatch-size = 3\n",
        "unclosed array": "hidden = [32, 16\nbatch-size = 2\n",
        "unclosed string": 'model = "mlp\n',
        "nested arrays": "hidden = " + "[" * 100000 + "]" * 100000 + "\n",
        "huge line": "a" * (16 << 20) + "\n",
        "huge comment, then junk": "# " + "a" * (16 << 20) + "\nbatch-size = = 2\n",
        "huge value": 'model = "' + "a" * (4 << 20) + '"\n',
        "NUL bytes": "batch-size = 2\0\0\n",
        "NUL in key": "batch\0size = 2\n",
        "non-UTF-8": b'model = "\xff\xfe\xfd"\n',
        "non-UTF-8 key": b"\xc3\x28 = 1\n",
        "binary": bytes(rng.randrange(256) for _ in range(4096)),
        "UTF-16": "batch-size = 2\n".encode("utf-16"),
        "model of wrong type": "model = 5\n",
        "float beyond float32": "init-temperature = 1e39\n",
        "float below float32's smallest": "tau = 1e-50\n",
        "a switch and its negation": "learn-temperature = true\nfixed-temperature = true\n",
        "a switch and its negation, reversed": "no-lstm = true\nlstm = true\n",
    }
    for name, text in configs.items():
        path = f.write("config_" + "".join(ch if ch.isalnum() else "_" for ch in name) + ".toml", text)
        add(f"--config {name}", train("--config", path))
    add("--config missing", train("--config", f.path("nope.toml")))
    add("--config directory", train("--config", f.work))
    add("--config /dev/zero", train("--config", "/dev/zero"))
    add("--config fifo", train("--config", fifo(f, "config_fifo")))
    add("--config checkpoint", train("--config", ck))

    # --- logdirs --------------------------------------------------------------
    afile = f.write("a_file", "not a directory\n")
    add("--logdir is a file", train(logdir=afile))
    add("--logdir under a file", train(logdir=os.path.join(afile, "run")))
    add("--logdir in /proc", train(logdir="/proc/seedrl-run"))
    add("--logdir empty", train(logdir=""))
    add("--logdir /dev/null", train(logdir="/dev/null"))
    add("--logdir too long", train(logdir=f.path("x" * 300)))
    loop = f.path("logdir_loop")
    os.symlink(loop, loop)
    add("--logdir symlink loop", train(logdir=loop))

    # --- checkpoints ------------------------------------------------------------
    def flip(data, pos, bit=0):
        b = bytearray(data)
        b[pos] ^= 1 << bit
        return bytes(b)

    n = len(good)
    bad_ckpts = {
        "empty": b"",
        "1 byte": good[:1],
        "16 bytes": good[:16],
        "truncated half": good[: n // 2],
        "truncated last byte": good[:-1],
        "appended byte": good + b"\0",
        "flip byte 0": flip(good, 0),
        "flip byte 9": flip(good, 9),
        "flip byte 13": flip(good, 13, 7),
        "flip byte 20": flip(good, 20, 3),
        "flip byte 40": flip(good, 40, 5),
        "flip middle": flip(good, n // 2),
        "flip last": flip(good, n - 1),
        "random bytes": bytes(rng.randrange(256) for _ in range(n)),
        "zeros": bytes(n),
        "text": b"this is not a checkpoint\n",
        "zip of junk": b"PK\x03\x04" + bytes(rng.randrange(256) for _ in range(1000)),
    }
    for name, data in bad_ckpts.items():
        path = f.write("ckpt_" + name.replace(" ", "_"), data)
        add(f"eval {name}", [bin_, "eval", "--checkpoint", path, "--episodes", "1"])
    # Damage behind a valid header: the JSON index and the tensor data after
    # it. A flip that lands in tensor data may load fine, so these may also
    # pass (exit 0).
    payload = good[HEADER:]
    m = len(payload)
    crc_ok = {
        "random payload": bytes(rng.randrange(256) for _ in range(m)),
        "payload cut in half": payload[: m // 2],
        "payload without end record": payload[:-22],
        "empty payload": b"",
    }
    for pos in [4, 10, 26, 30, 60, 200, m - 100, m - 40, m - 20, m - 10, m - 4]:
        crc_ok[f"payload flip at {pos}"] = flip(payload, pos, rng.randrange(8))
    for name, data in crc_ok.items():
        path = f.write("ckpt_crc_" + name.replace(" ", "_"), with_valid_header(good, data))
        may = name.startswith("payload flip")
        add(f"eval valid header, {name}" + (" (may pass)" if may else ""),
            [bin_, "eval", "--checkpoint", path, "--episodes", "1"])
        if name in ("random payload", "payload cut in half", "payload flip at 60"):
            add(f"resume valid header, {name}" + (" (may pass)" if may else ""),
                train("--resume", logdir=f.logdir_with_checkpoint(with_valid_header(good, data))))
    for name in ["truncated half", "flip middle", "random bytes", "empty", "flip byte 20"]:
        add(f"play {name}", [bin_, "play", "--policy", "checkpoint:" + f.path("ckpt_" + name.replace(" ", "_")),
                             "--episodes", "1"])
        add(f"resume {name}", train("--resume", logdir=f.logdir_with_checkpoint(bad_ckpts[name])))
    for name in ["flip byte 0", "flip byte 13", "truncated last byte", "appended byte", "zeros"]:
        add(f"resume {name}", train("--resume", logdir=f.logdir_with_checkpoint(bad_ckpts[name])))
    add("eval missing", [bin_, "eval", "--checkpoint", f.path("nope.pt"), "--episodes", "1"])
    add("eval directory", [bin_, "eval", "--checkpoint", f.work, "--episodes", "1"])
    add("eval /dev/zero", [bin_, "eval", "--checkpoint", "/dev/zero", "--episodes", "1"])
    add("eval /dev/null", [bin_, "eval", "--checkpoint", "/dev/null", "--episodes", "1"])
    add("eval fifo", [bin_, "eval", "--checkpoint", fifo(f, "ckpt_fifo"), "--episodes", "1"])
    add("eval --episodes 0", [bin_, "eval", "--checkpoint", ck, "--episodes", "0"])
    add("eval --episodes nan", [bin_, "eval", "--checkpoint", ck, "--episodes", "nan"])
    add("resume checkpoint dir", train("--resume", logdir=f.logdir_with_checkpoint(special="dir")))
    add("resume checkpoint fifo", train("--resume", logdir=f.logdir_with_checkpoint(special="fifo")))
    add("resume checkpoint link loop", train("--resume", logdir=f.logdir_with_checkpoint(special="loop")))
    other = f.logdir_with_checkpoint(good)
    add("resume other env", [bin_, "train", "--env", "acrobot", "--max-frames", "3000", "--actors", "2",
                             "--logdir", other, "--resume"])
    add("resume other hidden", train("--resume", "--hidden", "32", logdir=f.logdir_with_checkpoint(good)))

    # --- play, actor, bench ---------------------------------------------------------
    add("play const:99", [bin_, "play", "--env", "cartpole", "--policy", "const:99", "--episodes", "1"])
    add("play const:-1", [bin_, "play", "--env", "cartpole", "--policy", "const:-1", "--episodes", "1"])
    add("play policy junk", [bin_, "play", "--env", "cartpole", "--policy", "junk", "--episodes", "1"])
    add("play checkpoint missing", [bin_, "play", "--policy", "checkpoint:" + f.path("nope"), "--episodes", "1"])
    add("play --episodes -1", [bin_, "play", "--env", "cartpole", "--episodes", "-1"])
    add("play env nosuch", [bin_, "play", "--env", "nosuch", "--episodes", "1"])
    add("actor no host", [bin_, "actor", "--connect", "no-such-host.invalid:7000", "--env", "cartpole"])
    add("actor port 0", [bin_, "actor", "--connect", "127.0.0.1:0", "--env", "cartpole"])
    add("actor port junk", [bin_, "actor", "--connect", "127.0.0.1:http", "--env", "cartpole"])
    add("actor --actors 0", [bin_, "actor", "--connect", "127.0.0.1:1", "--env", "cartpole", "--actors", "0"])
    add("actor --envs-per-actor 0", [bin_, "actor", "--connect", "127.0.0.1:1", "--env", "cartpole", "--envs-per-actor", "0"])
    add("actor token missing", [bin_, "actor", "--connect", "127.0.0.1:1", "--env", "cartpole", "--token-file", f.path("nope")])
    add("actor --timeout-s nan", [bin_, "actor", "--connect", "127.0.0.1:1", "--env", "cartpole", "--timeout-s", "nan"])
    add("bench --seconds -1", [bin_, "bench", "--env", "cartpole", "--seconds", "-1"])
    add("bench --seconds nan", [bin_, "bench", "--env", "cartpole", "--seconds", "nan"])
    add("bench --sweep junk", [bin_, "bench", "--env", "cartpole", "--sweep", "junk"])
    add("bench --sweep unknown key", [bin_, "bench", "--env", "cartpole", "--sweep", "frobnicate=1,2"])
    add("bench --algo sac", [bin_, "bench", "--env", "pendulum", "--algo", "sac", "--seconds", "0.1"])
    add("play cartpole --football-rewards", [bin_, "play", "--env", "cartpole", "--football-rewards", "scoring",
                                             "--episodes", "1"])
    add("play --football-rewards scoring,scoring", [bin_, "play", "--env", "football:academy_empty_goal_close",
                                                    "--football-rewards", "scoring,scoring", "--episodes", "1"])

    # --- outputs: a command writes by renaming a temporary file over the path it is given, so a device,
    # a FIFO or a directory there, or one of its own inputs, must be refused before any work. Devices only
    # through a link in the work directory: a binary that wrote anyway would replace the link, not
    # /dev/null. Each case that could destroy its input gets a run of its own.
    null = f.path("null_link")
    os.symlink("/dev/null", null)

    def own_checkpoint():
        return os.path.join(f.logdir_with_checkpoint(good), "checkpoint.pt")

    own = own_checkpoint()
    add("export -o its own checkpoint", [bin_, "export", "--checkpoint", own, "-o", own])
    own = own_checkpoint()
    respelled = os.path.join(os.path.dirname(own), "..", os.path.basename(os.path.dirname(own)), ".", "checkpoint.pt")
    add("export -o its checkpoint respelled", [bin_, "export", "--checkpoint", own, "-o", respelled])
    own = own_checkpoint()
    os.symlink(own, own + ".link")
    add("export -o a link to its checkpoint", [bin_, "export", "--checkpoint", own, "-o", own + ".link"])
    own = own_checkpoint()
    best = os.path.join(os.path.dirname(own), "best.pt")
    shutil.copyfile(own, best)
    add("export best.pt -o the run's checkpoint.pt", [bin_, "export", "--checkpoint", best, "-o", own])
    add("export -o directory/", [bin_, "export", "--checkpoint", ck, "-o", f.work + "/"])
    add("export -o missing directory", [bin_, "export", "--checkpoint", ck, "-o", f.path("nope/w.pt")])
    add("export -o under a file", [bin_, "export", "--checkpoint", ck, "-o", os.path.join(afile, "w.pt")])
    add("export -o fifo", [bin_, "export", "--checkpoint", ck, "-o", fifo(f, "out_fifo_export")])
    add("export -o link to /dev/null", [bin_, "export", "--checkpoint", ck, "-o", null])
    add("export -o empty", [bin_, "export", "--checkpoint", ck, "-o", ""])
    add("eval --record fifo", [bin_, "eval", "--checkpoint", ck, "--episodes", "1", "--record",
                               fifo(f, "out_fifo_eval")])
    add("eval --record link to /dev/null", [bin_, "eval", "--checkpoint", ck, "--episodes", "1", "--record", null])
    own = own_checkpoint()
    add("eval --record its checkpoint", [bin_, "eval", "--checkpoint", own, "--episodes", "1", "--record", own])
    add("play --record link to /dev/null", [bin_, "play", "--env", "cartpole", "--episodes", "1", "--record", null])
    add("play --record directory", [bin_, "play", "--env", "cartpole", "--episodes", "1", "--record", f.work])
    own = own_checkpoint()
    add("play --record its checkpoint", [bin_, "play", "--policy", "checkpoint:" + own, "--episodes", "1",
                                         "--record", own])
    run = f.fresh_logdir()
    shutil.copytree(os.path.dirname(ck), run)
    add("report -o the run's metrics.jsonl", [bin_, "report", run, "-o", os.path.join(run, "metrics.jsonl")])
    add("report -o fifo", [bin_, "report", os.path.dirname(ck), "-o", fifo(f, "out_fifo_report")])
    add("report -o link to /dev/null", [bin_, "report", os.path.dirname(ck), "-o", null])
    add("bench --json fifo", [bin_, "bench", "--env", "cartpole", "--seconds", "0.5", "--json",
                              fifo(f, "out_fifo_bench")])
    add("bench --json directory", [bin_, "bench", "--env", "cartpole", "--seconds", "0.5", "--json", f.work])

    # --- a run's own file names taken, a busy dashboard port over an earlier run (refused before it moves) ---
    for name in ("summary.json", "metrics.csv", "replay.bin"):
        d = f.fresh_logdir()
        os.makedirs(os.path.join(d, name))
        add(f"train logdir with {name} a directory", [bin_, "train", "--env", "cartpole", "--max-frames", "3000",
                                                       "--logdir", d])
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    HELD.append(busy)  # listening for as long as the cases run
    d = f.fresh_logdir()
    shutil.copytree(os.path.dirname(ck), d)
    add("train --dashboard busy port over an earlier run", [bin_, "train", "--env", "cartpole", "--max-frames", "3000",
                                                            "--dashboard", str(busy.getsockname()[1]), "--logdir", d])

    # --- a Football data folder with one file damaged (the engine crashes on one) ---
    data = os.environ.get("GFOOTBALL_DATA_DIR") or "/opt/football/share/football/data"  # install-football.sh's
    if os.path.isdir(data):
        for what, cut in (("truncated", lambda b: b[: len(b) // 2]), ("garbled", lambda b: b[:100] + b"\xff" + b[101:])):
            d = f.path("football-data-" + what)
            shutil.copytree(data, d, symlinks=True, copy_function=os.symlink)
            ball = os.path.join(d, "media/objects/balls/ball.bmp")
            content = open(os.path.realpath(ball), "rb").read()
            os.remove(ball)
            with open(ball, "wb") as out_:
                out_.write(cut(content))
            add(f"football data file {what}", [bin_, "play", "--env", "football:academy_empty_goal_close",
                                               "--football-data-dir", d, "--episodes", "1"])

    # --- Atari ROMs that are not the game (ALE would hang or print its own errors) ---
    real_roms = os.environ.get("SEEDRL_ATARI_ROMS") or os.path.join(os.path.dirname(__file__), "../../../shared/ale/roms")
    pong = os.path.join(real_roms, "pong.bin")
    bad_roms = {"random 4 KiB": bytes(rng.getrandbits(8) for _ in range(4096)), "empty": b""}
    if os.path.exists(pong):
        bad_roms["truncated"] = open(pong, "rb").read()[:1024]
    for what, data in bad_roms.items():
        d = f.path("roms-" + what.replace(" ", "-"))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "pong.bin"), "wb") as rom:
            rom.write(data)
        for cmd in (["play", "--episodes", "1"], ["train", "--max-frames", "1000", "--logdir", f.fresh_logdir()],
                    ["bench", "--seconds", "0.5"]):
            add(f"atari rom {what} {cmd[0]}", [bin_, cmd[0], "--env", "atari:pong", "--rom-dir", d, *cmd[1:]])
    return out


def crc32c(data):
    """CRC-32C (Castagnoli), as src/io/crc32c.cc computes it for the checkpoint header."""
    table = crc32c.table
    if table is None:
        table = crc32c.table = []
        for i in range(256):
            x = i
            for _ in range(8):
                x = (x >> 1) ^ 0x82F63B78 if x & 1 else x >> 1
            table.append(x)
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


crc32c.table = None


def with_valid_header(good, payload):
    """A checkpoint whose header (magic, lengths, CRC) is right for `payload`:
    the index's parser and the tensor reader themselves see the damage. The
    index keeps its length where the payload still holds it."""
    index = min(struct.unpack("<Q", good[8:16])[0], len(payload))
    return good[:8] + struct.pack("<QQI", index, len(payload) - index, crc32c(payload)) + payload


def fifo(f, name):
    p = f.path(name)
    if not os.path.exists(p):
        os.mkfifo(p)
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", help="the seedrl binary")
    ap.add_argument("--timeout-s", type=float, default=15)
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    bin_ = c.binary(a.bin)

    work = c.tmpdir("bad-inputs")
    f = Files(bin_, work)
    ck = make_checkpoint(bin_, work)
    all_cases = [(n, argv) for n, argv in cases(bin_, f, ck) if a.only in n]
    if a.list:
        for n, argv in all_cases:
            print(n)
        return 0
    counts = {"signal": 0, "hang": 0, "exit 0": 0, "not one line": 0, "log lines before the error": 0}
    failing = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        runs = list(pool.map(lambda case: (case, run_case(case[1], a.timeout_s, cwd=work)), all_cases))
    rc_other = 0
    for (name, argv), (rc, out, hung, secs) in runs:
        # Lines as test/cli/one_line_error.h counts them: '\n'-terminated.
        lines = [ln for ln in out.split("\n") if ln.strip()]
        why = []
        if hung:
            counts["hang"] += 1
            why.append(f"hang (killed after {a.timeout_s:g} s)")
        elif rc < 0:
            counts["signal"] += 1
            why.append(f"signal {-rc} ({signal.Signals(-rc).name})")
        elif rc == 0 and "(may pass)" in name:
            pass
        elif rc == 0:
            counts["exit 0"] += 1
            why.append("exit 0")
        if not hung and len(lines) != 1 and not (rc == 0 and "(may pass)" in name):
            counts["not one line"] += 1
            errors = [ln for ln in lines if "error" in ln.lower()]
            if rc != 0 and len(errors) == 1 and errors[0] == lines[-1]:
                counts["log lines before the error"] += 1
                why.append(f"{len(lines)} lines (log lines, then the error)")
            else:
                why.append(f"{len(lines)} lines")
        if not hung and rc not in (0, 2) and rc > 0:
            rc_other += 1
        if why:
            first = (lines[0] if lines else "(no output)")[:160]
            last = (lines[-1] if lines else "")[:160]
            failing.append(f"{name}: {', '.join(why)}; exit {rc}; first: {first}"
                           + (f" | last: {last}" if len(lines) > 1 else ""))
    secs = time.monotonic() - t0
    c.result("bad-inputs", len(runs), len(failing),
             f"{len(runs)} cases in {secs:.0f} s: {counts['signal']} by signal, {counts['hang']} hangs, "
             f"{counts['exit 0']} exit 0, {counts['not one line']} not one line "
             f"(of which {counts['log lines before the error']} only log lines before the one error line) "
             f"({rc_other} others exited nonzero but not 2)")
    for line in failing:
        print("  FAIL " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
