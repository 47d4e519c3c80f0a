#!/usr/bin/env python3
"""Dumps what Google Research Football's scenario builders build, as text.

Runs each unmodified builder SRC_DIR/gfootball/scenarios/<name>.py (all but
test_example_multiagent) against a stub `gfootball_engine` module (the
engine's e_PlayerRole and e_Team orders, a ScenarioConfig with the defaults of
third_party/gfootball_engine/src/main.hpp) and a builder with the methods of
gfootball/env/scenario_builder.py's Scenario, for episode numbers 2 and 3, and
writes per scenario and episode number the config fields that
seedrl::football::Scenario holds, the ball position and both line-ups.
test/env/football/scenarios_test.cc checks src/env/football/scenarios.cc
against that file. Needs only Python 3's standard library.

  python3 bench/football/dump_scenarios.py /tmp/fb/football-3d9e754 \
      test/env/football/scenarios_reference.txt
"""
import enum
import importlib.util
import os
import sys
import types

EXCLUDED = {"test_example_multiagent"}  # a test of the multi-agent setup, no scenario
EPISODES = (2, 3)  # a gfootball env's first episode is number 2
FIELDS = (  # in seedrl::football::Scenario's order
    "game_duration", "second_half", "left_team_difficulty", "right_team_difficulty",
    "deterministic", "offsides", "end_episode_on_score", "end_episode_on_out_of_play",
    "end_episode_on_possession_change", "control_all_players")


class e_PlayerRole(enum.IntEnum):  # defines.hpp's enum e_PlayerRole, in its order
  e_PlayerRole_GK = 0
  e_PlayerRole_CB = 1
  e_PlayerRole_LB = 2
  e_PlayerRole_RB = 3
  e_PlayerRole_DM = 4
  e_PlayerRole_CM = 5
  e_PlayerRole_LM = 6
  e_PlayerRole_RM = 7
  e_PlayerRole_AM = 8
  e_PlayerRole_CF = 9


class e_Team(enum.IntEnum):  # defines.hpp's enum e_Team
  e_Left = 0
  e_Right = 1


class FormationEntry:

  def __init__(self, x, y, role, lazy, controllable):
    if not isinstance(role, e_PlayerRole):
      raise TypeError("role %r is no e_PlayerRole" % (role,))
    self.x, self.y, self.role = x, y, role
    self.lazy, self.controllable = bool(lazy), bool(controllable)


class ScenarioConfig:
  """main.hpp's struct ScenarioConfig: its public fields and their defaults.

  __slots__ makes a builder's typo in a field name an error, as pybind11's
  binding would.
  """
  __slots__ = ("ball_position", "left_team", "right_team", "left_agents", "right_agents",
               "use_magnet", "offsides", "real_time", "game_engine_random_seed",
               "reverse_team_processing", "left_team_difficulty", "right_team_difficulty",
               "deterministic", "end_episode_on_score", "end_episode_on_possession_change",
               "end_episode_on_out_of_play", "game_duration", "control_all_players",
               "second_half")

  def __init__(self):
    self.ball_position = [0.0, 0.0, 0.0]
    self.left_team = []
    self.right_team = []
    self.left_agents = 1
    self.right_agents = 0
    self.use_magnet = True
    self.offsides = True
    self.real_time = False
    self.game_engine_random_seed = 42
    self.reverse_team_processing = False
    self.left_team_difficulty = 1.0
    self.right_team_difficulty = 0.6
    self.deterministic = False
    self.end_episode_on_score = False
    self.end_episode_on_possession_change = False
    self.end_episode_on_out_of_play = False
    self.game_duration = 3000
    self.control_all_players = False
    self.second_half = 999999999

  @staticmethod
  def make():
    return ScenarioConfig()


class Builder:
  """scenario_builder.Scenario's methods a builder calls.

  Unlike Scenario, it adds no lazy goalkeeper at (-1.0, 0.42) to an empty team
  afterwards (main() checks that no scenario leaves one empty).
  """

  def __init__(self, episode_number):
    self._scenario_cfg = ScenarioConfig.make()
    self._active_team = e_Team.e_Left
    self._episode_number = episode_number

  def config(self):
    return self._scenario_cfg

  def SetTeam(self, team):
    self._active_team = team

  def AddPlayer(self, x, y, role, lazy=False, controllable=True):
    player = FormationEntry(x, y, role, lazy, controllable)
    if self._active_team == e_Team.e_Left:
      self._scenario_cfg.left_team.append(player)
    else:
      self._scenario_cfg.right_team.append(player)

  def SetBallPosition(self, ball_x, ball_y):
    self._scenario_cfg.ball_position[0] = ball_x
    self._scenario_cfg.ball_position[1] = ball_y

  def EpisodeNumber(self):
    return self._episode_number


def install_stubs(scenarios_dir):
  engine = types.ModuleType("gfootball_engine")
  engine.e_PlayerRole = e_PlayerRole
  engine.e_Team = e_Team
  engine.FormationEntry = FormationEntry
  engine.ScenarioConfig = ScenarioConfig
  sys.modules["gfootball_engine"] = engine
  package = types.ModuleType("gfootball")
  package.__path__ = []
  sys.modules["gfootball"] = package
  # The real gfootball/scenarios/__init__.py (role names and Team from the
  # engine), for the builders' `from . import *`.
  return load("gfootball.scenarios", os.path.join(scenarios_dir, "__init__.py"), [scenarios_dir])


def load(name, path, search_locations=None):
  spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=search_locations)
  module = importlib.util.module_from_spec(spec)
  sys.modules[name] = module
  spec.loader.exec_module(module)
  return module


def fmt(value):
  if isinstance(value, bool) or isinstance(value, float):
    return repr(value)
  if isinstance(value, int):
    return str(value)
  raise TypeError("unexpected value %r" % (value,))


def dump(name, module, episode):
  builder = Builder(episode)
  module.build_scenario(builder)
  cfg = builder.config()
  lines = ["scenario %s episode %d" % (name, episode)]
  for field in FIELDS:
    lines.append("%s %s" % (field, fmt(getattr(cfg, field))))
  if cfg.ball_position[2] != 0.0:
    raise ValueError("%s sets the ball's height" % name)
  lines.append("ball %s %s" % (fmt(float(cfg.ball_position[0])), fmt(float(cfg.ball_position[1]))))
  for side, team in (("left", cfg.left_team), ("right", cfg.right_team)):
    if not team:
      raise ValueError("%s leaves the %s team empty (Scenario would add a lazy GK)" % (name, side))
    lines.append("%s %d" % (side, len(team)))
    for p in team:
      lines.append("player %s %s %s %s %s" % (fmt(float(p.x)), fmt(float(p.y)), p.role.name[len("e_PlayerRole_"):],
                                              fmt(p.lazy), fmt(p.controllable)))
  lines.append("end")
  return lines


def main():
  if len(sys.argv) != 3:
    sys.exit("usage: %s SRC_DIR OUT" % sys.argv[0])
  src_dir, out = sys.argv[1:]
  sys.dont_write_bytecode = True  # no __pycache__ in gfootball's source
  scenarios_dir = os.path.join(src_dir, "gfootball", "scenarios")
  install_stubs(scenarios_dir)
  names = sorted(f[:-3] for f in os.listdir(scenarios_dir)
                 if f.endswith(".py") and f != "__init__.py" and f[:-3] not in EXCLUDED)
  repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
  lines = ["# Generated by: python3 bench/football/dump_scenarios.py SRC_DIR %s" % os.path.relpath(out, repo),
           "# (SRC_DIR: gfootball's source, %s here). Do not edit." % os.path.basename(os.path.abspath(src_dir)),
           "# Per scenario and episode number: config fields, ball x y, then each team's",
           "# players as: player x y role lazy controllable."]
  for name in names:
    # One module per scenario, built for both episodes, as the env's import does.
    module = load("gfootball.scenarios." + name, os.path.join(scenarios_dir, name + ".py"))
    for episode in EPISODES:
      lines += dump(name, module, episode)
  with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
  print("%d scenarios to %s" % (len(names), out))


if __name__ == "__main__":
  main()
