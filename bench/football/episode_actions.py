#!/usr/bin/env python3
"""What a Football policy does, episode by episode, from `seedrl play --render`.

Reads the stderr of `seedrl play --render` on a football:* env with
`--football-obs simple115v2` (one line of 115 numbers per step, then
"action K (name) reward R") and prints, per episode: its length, its return,
the steps at which it shot and for how many steps in a row it held the
button, where the ball and the active player were at the
end, and its most used actions; then the totals. It shows, for example,
whether a run_to_score policy scores by shooting or by dribbling into the net.

  build/seedrl play --policy checkpoint:RUN/checkpoint.pt --episodes 20 --seed 3 --render 2> render.txt
  python3 bench/football/episode_actions.py render.txt

(RUN trained with --football-obs simple115v2; the checkpoint brings its env.)
"""
import collections
import re
import sys

# simple115v2 layout (gfootball's Simple115StateWrapper): left team positions
# [0, 22), ... ball position [88, 91), ... active player one-hot [97, 108).
BALL = slice(88, 91)
ACTIVE = slice(97, 108)
LEFT_POSITIONS = slice(0, 22)


def read_episodes(path):
    episodes = collections.defaultdict(list)
    episode, obs = None, None
    with open(path) as f:
        for line in f:
            m = re.match(r"episode (\d+) step (\d+)", line)
            if m:
                episode, obs = int(m.group(1)), None
                continue
            if episode is None:
                continue
            m = re.match(r"action (\d+) \((\w+)\) reward (\S+)", line)
            if m:
                episodes[episode].append((m.group(2), float(m.group(3)), obs))
            elif line[:1] in "-0123456789":
                values = line.split()
                if len(values) == 115:
                    obs = [float(v) for v in values]
    return episodes


def holds(shots):
    """Lengths of the runs of consecutive shot presses: the engine sets a
    shot's power by how long the button is held (about 5 steps for full power)."""
    runs = []
    for k in shots:
        if runs and k == prev + 1:
            runs[-1] += 1
        else:
            runs.append(1)
        prev = k
    return runs


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: episode_actions.py RENDER_TXT (stderr of seedrl play --render, simple115v2)")
    episodes = read_episodes(sys.argv[1])
    if not episodes:
        sys.exit(f"{sys.argv[1]}: no episodes (expected `seedrl play --render` output of a simple115v2 football env)")
    totals = collections.Counter()
    all_holds = collections.Counter()
    shooting_episodes = 0
    for e, steps in sorted(episodes.items()):
        actions = collections.Counter(a for a, _, _ in steps)
        totals.update(actions)
        shots = [k for k, (a, _, _) in enumerate(steps) if a == "shot"]
        shooting_episodes += bool(shots)
        all_holds.update(holds(shots))
        ret = sum(r for _, r, _ in steps)
        last = steps[-1][2]
        where = ""
        if last:
            active = max(range(11), key=lambda i: last[ACTIVE][i])
            player = last[LEFT_POSITIONS][2 * active : 2 * active + 2]
            where = "ball (%.2f, %.2f) player (%.2f, %.2f)" % (*last[BALL][:2], *player)
        top = ", ".join(f"{a} {n}" for a, n in actions.most_common(4))
        print(f"episode {e}: {len(steps)} steps, return {ret:.2f}, shots at {shots[:5]} (holds {holds(shots)}), "
              f"end {where}; {top}")
    n = len(episodes)
    print(f"{n} episodes; {shooting_episodes} with a shot; actions: "
          + ", ".join(f"{a} {c}" for a, c in totals.most_common(8)))
    print("shot holds (steps held: how many): " + ", ".join(f"{k}: {all_holds[k]}" for k in sorted(all_holds)))


if __name__ == "__main__":
    main()
