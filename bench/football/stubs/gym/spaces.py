"""Minimal stand-ins for gym.spaces (Box, Discrete, MultiDiscrete) as old gym
0.2x defines their constructors and attributes; no sampling, no checks beyond
shapes."""

import numpy as np


class Space(object):

  def __init__(self, shape=None, dtype=None):
    self.shape = None if shape is None else tuple(shape)
    self.dtype = None if dtype is None else np.dtype(dtype)


class Box(Space):
  """low/high broadcast to shape, as gym 0.2x's Box does."""

  def __init__(self, low, high, shape=None, dtype=np.float32):
    if shape is None:
      shape = np.shape(low) if np.shape(low) else np.shape(high)
    shape = tuple(shape)
    self.low = np.full(shape, low, dtype=dtype) if np.isscalar(low) else np.asarray(low, dtype=dtype)
    self.high = np.full(shape, high, dtype=dtype) if np.isscalar(high) else np.asarray(high, dtype=dtype)
    assert self.low.shape == shape and self.high.shape == shape, (self.low.shape, self.high.shape, shape)
    super(Box, self).__init__(shape, dtype)


class Discrete(Space):

  def __init__(self, n):
    self.n = int(n)
    super(Discrete, self).__init__((), np.int64)


class MultiDiscrete(Space):

  def __init__(self, nvec):
    self.nvec = np.asarray(nvec, dtype=np.int64)
    super(MultiDiscrete, self).__init__(self.nvec.shape, np.int64)
