"""Minimal stand-in for gym.envs.registration: register() records the spec."""

registry = {}


def register(id, entry_point=None, kwargs=None, **unused):
  registry[id] = (entry_point, dict(kwargs or {}))
