"""A pure-Python remote actor for `seedrl train --remote-actors` (standard library + numpy).

It speaks protocol version 2 (docs/protocol.md): a HELLO with the env spec and the
shared secret (and no env settings: the learner checks the spec alone), then one STEP / ACTIONS round trip per step of this actor's K
environments. Inference and learning stay on the learner; this process only steps
environments, so any Python environment (a simulator binding, a Gymnasium env)
can feed a seedrl learner.

    from seedrl_client import RemoteActor, run_gym_envs
    client = RemoteActor("127.0.0.1", 7000, obs_shape=(4,), obs_dtype=np.float32,
                         num_actions=2, num_envs=len(envs), token=open("token").read().strip())
    run_gym_envs(client, envs)   # returns when the learner has finished training
"""

import socket
import struct
import time

import numpy as np

PROTOCOL_VERSION = 2
MAGIC = b"SEEDRLAP"
HELLO, WELCOME, REJECT, STEP, ACTIONS, HEARTBEAT, GOODBYE = range(1, 8)
FIRST, TERMINATED, TRUNCATED = 1, 2, 4
MAX_CONTROL_FRAME = 65536
# REJECT codes; BUSY is worth retrying.
BAD_VERSION, BAD_TOKEN, SPEC_MISMATCH, BAD_REQUEST, BUSY = 1, 2, 3, 4, 5
# GOODBYE codes.
SHUTDOWN, FINISHED, PROTOCOL_ERROR = 0, 1, 2

_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.uint8): 1}


class Rejected(Exception):
    """The learner refused the handshake (`code` is one of the REJECT codes)."""

    def __init__(self, code, message):
        super().__init__(f"learner refused this actor (code {code}): {message}")
        self.code = code


class LearnerGone(Exception):
    """The learner said GOODBYE (`code` FINISHED: training is over)."""

    def __init__(self, code, message):
        super().__init__(f"learner said goodbye (code {code}): {message}")
        self.code = code


class ProtocolError(Exception):
    pass


def _str16(text):
    data = text.encode()
    return struct.pack("<H", len(data)) + data


class RemoteActor:
    """One connection carrying `num_envs` environments.

    Discrete actions: give `num_actions`; continuous: `action_low` and `action_high`
    (sequences of the same length). The spec must equal the learner's `--env`.
    """

    def __init__(self, host, port, obs_shape, obs_dtype=np.float32, num_actions=None, action_low=None,
                 action_high=None, num_envs=1, token="", env_name="python", timeout=30.0):
        self.host, self.port, self.timeout = host, int(port), float(timeout)
        self.obs_shape = tuple(int(d) for d in obs_shape)
        self.obs_dtype = np.dtype(obs_dtype)
        if self.obs_dtype not in _DTYPES:
            raise ValueError("obs_dtype must be float32 or uint8")
        if (num_actions is None) == (action_low is None):
            raise ValueError("give num_actions (discrete) or action_low/action_high (continuous)")
        self.discrete = num_actions is not None
        self.num_actions = num_actions
        self.action_low = None if self.discrete else np.asarray(action_low, np.float32)
        self.action_high = None if self.discrete else np.asarray(action_high, np.float32)
        self.action_width = 1 if self.discrete else len(self.action_low)
        self.num_envs = int(num_envs)
        self.token, self.env_name = token, env_name
        self.obs_bytes = int(np.prod(self.obs_shape, dtype=np.int64)) * self.obs_dtype.itemsize
        self.sock = None

    # -- framing -----------------------------------------------------------
    def _recv_exact(self, n):
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            k = self.sock.recv_into(view[got:], n - got)
            if k == 0:
                raise ConnectionError(f"{self.host}:{self.port} closed the connection")
            got += k
        return bytes(buf)

    def _read_frame(self):
        length, mtype = struct.unpack("<IB", self._recv_exact(5))
        if length == 0:
            raise ProtocolError("frame length 0")
        if mtype != ACTIONS and length > MAX_CONTROL_FRAME:
            raise ProtocolError(f"oversized frame of {length} bytes")
        body = self._recv_exact(length - 1)
        if mtype == REJECT:
            code, n = struct.unpack_from("<HH", body)
            raise Rejected(code, body[4:4 + n].decode(errors="replace"))
        if mtype == GOODBYE:
            code, n = struct.unpack_from("<HH", body)
            raise LearnerGone(code, body[4:4 + n].decode(errors="replace"))
        return mtype, body

    def _send_frame(self, mtype, *parts):
        length = 1 + sum(len(p) for p in parts)
        self.sock.sendall(b"".join([struct.pack("<IB", length, mtype), *parts]))

    # -- API ---------------------------------------------------------------
    def connect(self):
        """Connects and handshakes; returns the WELCOME fields as a dict."""
        self.sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        body = MAGIC + struct.pack("<HHI", PROTOCOL_VERSION, 0, self.num_envs)
        body += struct.pack("<BB", _DTYPES[self.obs_dtype], len(self.obs_shape))
        body += b"".join(struct.pack("<I", d) for d in self.obs_shape)
        if self.discrete:
            body += struct.pack("<BI", 0, self.num_actions)
        else:
            body += struct.pack("<BI", 1, self.action_width)
            body += self.action_low.astype("<f4").tobytes() + self.action_high.astype("<f4").tobytes()
        body += _str16(self.token) + _str16(self.env_name) + _str16("")  # env settings: none
        self._send_frame(HELLO, body)
        mtype, reply = self._read_frame()
        if mtype != WELCOME or len(reply) != 14:
            raise ProtocolError(f"expected WELCOME, got type {mtype}")
        version, first_slot, heartbeat_ms, timeout_ms = struct.unpack("<HIII", reply)
        return {"version": version, "first_slot": first_slot, "heartbeat_ms": heartbeat_ms,
                "timeout_ms": timeout_ms}

    def step(self, rewards, flags, obs):
        """Sends one STEP (K rewards, K flags, K observations) and returns the actions:
        int64 [K] for discrete specs, float32 [K, dim] for continuous ones."""
        rewards = np.ascontiguousarray(rewards, dtype="<f4")
        flags = np.ascontiguousarray(flags, dtype=np.uint8)
        obs = np.ascontiguousarray(obs, dtype=self.obs_dtype.newbyteorder("<"))
        if rewards.shape != (self.num_envs,) or flags.shape != (self.num_envs,) or obs.nbytes != self.num_envs * self.obs_bytes:
            raise ValueError("step(): rewards, flags and obs must hold num_envs entries of the declared spec")
        self._send_frame(STEP, rewards.tobytes(), flags.tobytes(), obs.tobytes())
        expect = 4 * self.num_envs * self.action_width
        while True:
            mtype, body = self._read_frame()
            if mtype == HEARTBEAT:
                continue  # the learner is alive but busy
            if mtype != ACTIONS or len(body) != expect:
                raise ProtocolError(f"expected ACTIONS of {expect} bytes, got type {mtype} of {len(body)}")
            actions = np.frombuffer(body, dtype="<f4").reshape(self.num_envs, self.action_width)
            return actions[:, 0].astype(np.int64) if self.discrete else actions.copy()

    def heartbeat(self):
        """Tells the learner this actor is alive (call during a slow env step)."""
        self._send_frame(HEARTBEAT)

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def run_gym_envs(client, envs, seed=0, max_steps=None, retry_for_s=30.0, on_episode=None):
    """Steps Gymnasium-style envs (reset(seed=) -> (obs, info); step(a) -> (obs, reward,
    terminated, truncated, info)) for the learner until it finishes training (returns
    True) or `max_steps` round trips pass (returns False). Reconnects with backoff
    after a lost connection; a refusal other than BUSY is raised."""
    k_envs = len(envs)
    assert k_envs == client.num_envs
    rewards = np.zeros(k_envs, np.float32)
    flags = np.full(k_envs, FIRST, np.uint8)
    obs = np.zeros((k_envs,) + client.obs_shape, client.obs_dtype)
    returns = np.zeros(k_envs, np.float64)
    steps, backoff, seeded = 0, 0.1, False
    give_up = time.monotonic() + retry_for_s
    while max_steps is None or steps < max_steps:
        try:
            client.connect()
            backoff, give_up = 0.1, time.monotonic() + retry_for_s
            for k, env in enumerate(envs):  # the learner dropped any earlier partial episode
                o, _ = env.reset(seed=None if seeded else seed + k)
                obs[k], flags[k], rewards[k], returns[k] = o, FIRST, 0.0, 0.0
            seeded = True
            while max_steps is None or steps < max_steps:
                actions = client.step(rewards, flags, obs)
                steps += 1
                for k, env in enumerate(envs):
                    if flags[k] & (TERMINATED | TRUNCATED):
                        o, _ = env.reset()
                        obs[k], flags[k], rewards[k], returns[k] = o, FIRST, 0.0, 0.0
                        continue
                    o, r, terminated, truncated, _ = env.step(actions[k])
                    obs[k], rewards[k] = o, r
                    flags[k] = (TERMINATED if terminated else 0) | (TRUNCATED if truncated else 0)
                    returns[k] += r
                    if flags[k] and on_episode is not None:
                        on_episode(float(returns[k]))
            return False
        except LearnerGone as e:
            if e.code == FINISHED:
                return True
        except Rejected as e:
            if e.code != BUSY:
                raise
        except (OSError, ConnectionError, ProtocolError):
            pass
        finally:
            client.close()
        if time.monotonic() > give_up:
            raise ConnectionError(f"no learner at {client.host}:{client.port} for {retry_for_s} s")
        time.sleep(backoff)
        backoff = min(backoff * 2, 5.0)
    return False
