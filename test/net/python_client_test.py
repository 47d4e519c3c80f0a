"""End-to-end test of python/seedrl_client.py against a real learner.

Usage: python3 python_client_test.py SEEDRL_BINARY
Starts `seedrl train --actors 0 --remote-actors` on loopback with a token, checks
that a bad token and a mismatched spec are refused, then lets two Python actor
threads (a numpy CartPole written here, Gymnasium's constants) feed the learner
until it finishes; the learner's frame and episode counts must match what the
Python side sent.
"""
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading

try:
    import numpy as np
except ImportError:
    # CTest counts exit status 77 as skipped (SKIP_RETURN_CODE).
    print("skipped: this python3 (%s) has no numpy (Debian: python3-numpy)" % sys.executable)
    sys.exit(77)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import seedrl_client as sc  # noqa: E402


class ToyCartPole:
    """CartPole-v1 in numpy (Gymnasium's constants and termination rules)."""

    def __init__(self):
        self.rng = np.random.default_rng(0)
        self.state = np.zeros(4)
        self.t = 0

    def reset(self, seed=None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.state = self.rng.uniform(-0.05, 0.05, 4)
        self.t = 0
        return self.state.astype(np.float32), {}

    def step(self, action):
        x, x_dot, th, th_dot = self.state
        force = 10.0 if action == 1 else -10.0
        cos, sin = math.cos(th), math.sin(th)
        temp = (force + 0.05 * th_dot * th_dot * sin) / 1.1
        th_acc = (9.8 * sin - cos * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos * cos / 1.1))
        x_acc = temp - 0.05 * th_acc * cos / 1.1
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * x_acc
        th, th_dot = th + 0.02 * th_dot, th_dot + 0.02 * th_acc
        self.state = np.array([x, x_dot, th, th_dot])
        self.t += 1
        terminated = abs(x) > 2.4 or abs(th) > 12 * 2 * math.pi / 360
        truncated = not terminated and self.t >= 500
        return self.state.astype(np.float32), 1.0, terminated, truncated, {}


def free_port():
    # Below the kernel's range for outgoing connections (test/util/free_port.h
    # says why): a client there can connect to itself before the server listens.
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.SystemRandom()
    for _ in range(1000):
        port = rng.randint(max(1024, low - 12000), low - 1)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free loopback port below %d" % low)


def main():
    binary = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="seedrl_pyclient_")
    token_file = os.path.join(tmp, "token")
    with open(token_file, "w") as f:
        f.write("py-secret\n")
    port = free_port()
    max_frames = 20000
    learner = subprocess.Popen(
        [binary, "train", "--env", "cartpole", "--actors", "0", "--remote-actors", f"127.0.0.1:{port}",
         "--token-file", token_file, "--max-frames", str(max_frames), "--inference-batch", "8",
         "--batch-size", "8", "--logdir", os.path.join(tmp, "run"), "--log-interval-s", "1",
         "--checkpoint-every-s", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        def client(token="py-secret", shape=(4,), envs=4):
            return sc.RemoteActor("127.0.0.1", port, obs_shape=shape, obs_dtype=np.float32, num_actions=2,
                                  num_envs=envs, token=token, env_name="toy-cartpole", timeout=10)

        # Wait for the learner to listen (it also loads LibTorch first).
        for attempt in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                threading.Event().wait(0.1)
        for bad, code in ((client(token="wrong"), sc.BAD_TOKEN), (client(shape=(3,)), sc.SPEC_MISMATCH)):
            try:
                bad.connect()
                raise AssertionError("a bad handshake was accepted")
            except sc.Rejected as e:
                assert e.code == code, e
            finally:
                bad.close()

        counts = {"episodes": 0, "returns": []}
        lock = threading.Lock()

        def on_episode(ret):
            with lock:
                counts["episodes"] += 1
                counts["returns"].append(ret)

        finished = []

        def actor(i):
            envs = [ToyCartPole() for _ in range(4)]
            finished.append(sc.run_gym_envs(client(), envs, seed=100 * i, on_episode=on_episode))

        threads = [threading.Thread(target=actor, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        if any(t.is_alive() for t in threads) or finished != [True, True]:
            learner.kill()
            out, _ = learner.communicate(timeout=60)
            raise AssertionError(f"actors did not finish ({finished}); the learner said:\n{out}")
        out, _ = learner.communicate(timeout=60)
        assert learner.returncode == 0, out
        summary = json.load(open(os.path.join(tmp, "run", "summary.json")))
        assert summary["frames"] >= max_frames, summary
        # Every episode the learner counted ended in a Python env; the last
        # STEPs in flight at shutdown may not have been counted.
        assert counts["episodes"] - 8 <= summary["episodes"] <= counts["episodes"], (summary, counts["episodes"])
        assert "refused: bad token" in out and "toy-cartpole" in out, out
        print(f"ok: learner {summary['frames']:.0f} frames, {summary['episodes']:.0f} episodes; "
              f"python {counts['episodes']} episodes, mean return {np.mean(counts['returns']):.1f}, "
              f"{summary['fps']:.0f} fps")
    finally:
        if learner.poll() is None:
            learner.kill()
            learner.wait()


if __name__ == "__main__":
    main()
