"""Minimal stand-in for OpenAI gym 0.2x (the API gfootball 3d9e754 was written
against), for bench/football/golden_traces.py: Env, Wrapper, ObservationWrapper,
RewardWrapper and gym.spaces, with old gym's semantics:
  Wrapper.step/reset          forward to self.env
  ObservationWrapper.reset    -> self.observation(env.reset())
  ObservationWrapper.step     -> (self.observation(obs), reward, done, info)
  RewardWrapper.step          -> (obs, self.reward(reward), done, info)
  Wrapper attributes          action_space/observation_space/reward_range/metadata
                              copied from env at construction; other public
                              names forwarded to env; unwrapped = env.unwrapped.
"""

from gym import spaces  # noqa: F401


class Env(object):
  metadata = {'render.modes': []}
  reward_range = (-float('inf'), float('inf'))
  action_space = None
  observation_space = None

  @property
  def unwrapped(self):
    return self

  def close(self):
    pass


class Wrapper(Env):

  def __init__(self, env):
    self.env = env
    self.action_space = self.env.action_space
    self.observation_space = self.env.observation_space
    self.reward_range = self.env.reward_range
    self.metadata = self.env.metadata

  def __getattr__(self, name):
    if name.startswith('_'):
      raise AttributeError(
          "attempted to get missing private attribute '{}'".format(name))
    return getattr(self.env, name)

  def step(self, action):
    return self.env.step(action)

  def reset(self, **kwargs):
    return self.env.reset(**kwargs)

  def render(self, mode='human', **kwargs):
    return self.env.render(mode, **kwargs)

  def close(self):
    return self.env.close()

  @property
  def unwrapped(self):
    return self.env.unwrapped


class ObservationWrapper(Wrapper):

  def reset(self, **kwargs):
    observation = self.env.reset(**kwargs)
    return self.observation(observation)

  def step(self, action):
    observation, reward, done, info = self.env.step(action)
    return self.observation(observation), reward, done, info

  def observation(self, observation):
    raise NotImplementedError


class RewardWrapper(Wrapper):

  def reset(self, **kwargs):
    return self.env.reset(**kwargs)

  def step(self, action):
    observation, reward, done, info = self.env.step(action)
    return observation, self.reward(reward), done, info

  def reward(self, reward):
    raise NotImplementedError
