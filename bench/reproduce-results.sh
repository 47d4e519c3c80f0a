#!/bin/bash
# Reruns the README's Results table: trains each tuned config in configs/ once
# and prints its final mean return (last 100 episodes) against the table's
# target, with the wall time. Runs one at a time, so each has the machine.
#   bench/reproduce-results.sh                  # every config (~1 h on 2 cores)
#   bench/reproduce-results.sh minatar-breakout pendulum   # some of them
#   ROMS=../shared/ale/roms bench/reproduce-results.sh atari-pong   # Atari: hours on 2 cores
# SEEDRL: the binary (default build/seedrl); SEED: passed as --seed if set;
# ROMS: passed as --rom-dir if set (the Atari and Football configs, which need
# ALE or the Football engine, are not in the default list).
# Exit status 1 if a run failed or missed its target.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${SEEDRL:-build/seedrl}

# config name -> target mean return (the README's Results table).
declare -A target=(
  [cartpole]=475 [r2d2-cartpole]=475
  [minatar-breakout]=17 [minatar-freeway]=45 [minatar-space_invaders]=150
  [minatar-asterix]=17 [minatar-seaquest]=10
  [r2d2-minatar-breakout]=15 [r2d2-minatar-space_invaders]=100
  [pendulum]=-250 [mujoco-halfcheetah]=3000
  [atari-pong]=18 [r2d2-atari-pong]=15 [atari-breakout]=100 [atari-pong-fast]=18
  [atari-breakout-fast]=100
  # Football's training return counts 2 for a goal (with all checkpoints) and
  # at most 1 without: 1.95 means at least 95% of episodes scored.
  [football-academy_empty_goal_close]=1.95
)
# Configs judged by their evaluation envs (the final "eval envs: ... mean
# return" line) rather than by the training episodes: R2D2 on Atari, whose
# actors explore with epsilons up to 0.4 (Ape-X's spread) and whose agent is
# scored at epsilon 0.001, as R2D2 and Ape-X score theirs.
declare -A by_eval=([r2d2-atari-pong]=1)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(cartpole pendulum minatar-freeway minatar-space_invaders minatar-seaquest
                                 minatar-asterix minatar-breakout mujoco-halfcheetah r2d2-cartpole
                                 r2d2-minatar-breakout r2d2-minatar-space_invaders)
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
status=0
for name in "${names[@]}"; do
  if [ -z "${target[$name]:-}" ]; then
    echo "$name: no such config with a target (known: ${!target[*]})" >&2
    exit 2
  fi
  seed=()
  [ -n "${SEED:-}" ] && seed=(--seed "$SEED")
  [ -n "${ROMS:-}" ] && seed+=(--rom-dir "$ROMS")
  out=$("$bin" train --config "configs/$name.toml" "${seed[@]}" --logdir "$logdir/$name" 2>&1)
  line=$(grep 'done:' <<< "$out")
  if [ -z "$line" ]; then
    echo "$name: FAILED (no final line)"
    status=1
    continue
  fi
  ret=$(sed -E 's/.*mean return \(last 100\) ([-0-9.]+).*/\1/' <<< "$line")
  if [ -n "${by_eval[$name]:-}" ]; then
    ret=$(grep 'eval envs:' <<< "$out" | sed -E 's/.*mean return ([-0-9.]+).*/\1/')
    ret=${ret:-none}
  fi
  secs=$(sed -E 's/.*frames in ([0-9.]+) s.*/\1/' <<< "$line")
  frames=$(sed -E 's/.*done: ([0-9]+) frames.*/\1/' <<< "$line")
  if awk -v r="$ret" -v t="${target[$name]}" 'BEGIN { exit !(r ~ /^-?[0-9.]+$/ && r + 0 >= t + 0) }'; then verdict=met; else verdict=MISSED; status=1; fi
  printf '%-28s return %9s  target %6s  %-6s  %s frames in %s s\n' "$name" "$ret" "${target[$name]}" "$verdict" \
    "$frames" "$secs"
done
exit $status
