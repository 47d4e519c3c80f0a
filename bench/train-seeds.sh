#!/bin/bash
# Trains once per seed and prints each run's final mean return and wall time,
# to compare settings by learning, not only by frames/s.
#   bench/train-seeds.sh "1 2 3 4" --env cartpole --max-frames 2000000 [flags]
# SEEDRL: the binary (default build/seedrl).
set -euo pipefail
seeds=$1; shift
bin=${SEEDRL:-build/seedrl}
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
for s in $seeds; do
  line=$("$bin" train "$@" --seed "$s" --logdir "$logdir/$s" 2>&1 | grep 'done:' || echo "seed $s failed")
  echo "seed $s: $(sed -E 's/.*done: ([0-9]+) frames in ([0-9.]+) s \(([0-9]+) fps\).*mean return \(last 100\) ([-0-9.]+).*/return \4 | \2 s | \3 fps/' <<< "$line")"
done
