"""Minimal stand-in for gym.envs (only gym.envs.registration is used)."""
