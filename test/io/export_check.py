"""Rebuilds a `seedrl export` file's policy in plain PyTorch and prints its
outputs for given observations, for test/io/export_test.cc to compare with
seedrl's own forward pass. Offline: needs only torch (Debian's python3-torch).

usage: export_check.py WEIGHTS.pt INPUTS.json OUTPUT.json
INPUTS.json: {"obs": [numbers...]} (a batch of observations, flattened);
OUTPUT.json gets {"logits": [[...], ...], "value": [...]}.
"""
import json
import sys

import torch
from torch import nn


class Torso(nn.Module):
    """The MLP (torso.layers) or MinAtar (torso.conv, torso.fc) torso."""

    def __init__(self, meta):
        super().__init__()
        shape, self.kind = meta["observation"]["shape"], meta["torso"]
        if self.kind == "mlp":
            act = nn.Tanh if meta["activation"] == "tanh" else nn.ReLU
            sizes = [int(torch.tensor(shape).prod())] + meta["hidden"]
            layers = []
            for n_in, n_out in zip(sizes, sizes[1:]):
                layers += [nn.Linear(n_in, n_out), act()]
            self.layers = nn.Sequential(*layers)
            self.features = sizes[-1]
        elif self.kind == "minatar":
            h, w, c = shape
            self.conv = nn.Conv2d(c, 16, 3)
            self.fc = nn.Linear((h - 2) * (w - 2) * 16, 128)
            self.features = 128
        else:
            sys.exit(f"export_check.py: torso {self.kind} is not rebuilt here")

    def forward(self, obs):
        if self.kind == "mlp":
            return self.layers(obs.flatten(1).float())
        x = torch.relu(self.conv(obs.permute(0, 3, 1, 2).float()))  # [N, H, W, C] -> NCHW
        return torch.relu(self.fc(x.flatten(1)))


class Policy(nn.Module):
    def __init__(self, meta):
        super().__init__()
        if meta["lstm"] or meta["separate_value_net"] or meta.get("prev_action_input") or meta["action"]["kind"] != "discrete":
            sys.exit("export_check.py: only feed-forward discrete policies are rebuilt here")
        self.meta = meta
        if meta["normalize_obs"]:
            dim = meta["observation"]["shape"][0]
            self.obs_normalizer = nn.Module()
            for name, size in (("mean", dim), ("var", dim), ("count", 1)):
                self.obs_normalizer.register_buffer(name, torch.zeros(size, dtype=torch.float64))
        self.torso = Torso(meta)
        self.policy = nn.Linear(self.torso.features, meta["action"]["num_actions"])
        self.value = nn.Linear(self.torso.features, 1)

    def forward(self, obs):
        if hasattr(self, "obs_normalizer"):
            n, o = self.obs_normalizer, self.meta["obs_normalizer"]
            std = (n.var + o["eps"]).sqrt().float()
            obs = ((obs.float() - n.mean.float()) / std).clamp(-o["clip"], o["clip"])
        h = self.torso(obs)
        return self.policy(h), self.value(h).squeeze(-1)


def main(weights, inputs, output):
    state = torch.load(weights, weights_only=True)  # what PyTorch >= 2.6 does by default
    if type(state) is not dict:
        sys.exit(f"export_check.py: {weights} holds a {type(state).__name__}, not a dict")
    meta = json.loads(state.pop("seedrl_metadata"))
    net = Policy(meta)
    net.load_state_dict(state, strict=True)
    obs_spec = meta["observation"]
    dtype = torch.uint8 if obs_spec["dtype"] == "uint8" else torch.float32
    with open(inputs) as f:
        obs = torch.tensor(json.load(f)["obs"], dtype=dtype).view(-1, *obs_spec["shape"])
    with torch.no_grad():
        logits, value = net(obs)
    with open(output, "w") as f:
        json.dump({"logits": logits.tolist(), "value": value.tolist()}, f)


if __name__ == "__main__":
    main(*sys.argv[1:4])
