#!/bin/bash
# Trains once per seed and prints each run's final mean return and wall time,
# to compare settings by learning, not only by frames/s. With --target-return R
# (and usually --stop-at-target) it prints each seed's time to the target and,
# over the seeds, the median and the range of the wall time and frames to it.
#   bench/train-seeds.sh "1 2 3" --env cartpole --max-frames 2000000 [flags]
#   bench/train-seeds.sh "1 2 3" --config configs/atari-pong.toml --target-return 18 --stop-at-target
# SEEDRL: the binary (default build/seedrl). KEEP=DIR keeps each run in DIR/seedN
# (for `seedrl report DIR/seed*`); otherwise the runs go to a temporary directory.
set -euo pipefail
seeds=$1; shift
bin=${SEEDRL:-build/seedrl}
if [[ -n "${KEEP:-}" ]]; then
  logdir=$KEEP
  mkdir -p "$logdir"
else
  logdir=$(mktemp -d)
  trap 'rm -rf "$logdir"' EXIT
fi
for s in $seeds; do
  if ! "$bin" train "$@" --seed "$s" --logdir "$logdir/seed$s" > "$logdir/seed$s.log" 2>&1; then
    echo "seed $s: failed (exit $?); its last lines:"
    tail -n 3 "$logdir/seed$s.log"
  fi
done
python3 - "$logdir" $seeds <<'PY'
import json, os, statistics, sys
root, seeds = sys.argv[1], sys.argv[2:]
times, frames = [], []
target = None
for s in seeds:
    path = os.path.join(root, f"seed{s}", "summary.json")
    if not os.path.exists(path):
        print(f"seed {s}: no summary.json")
        continue
    j = json.load(open(path))
    ret = j.get("episode_return_mean")
    line = (f"seed {s}: return {ret:.2f}" if ret is not None else f"seed {s}: return -") + \
           f" | {j['wall_seconds']:.1f} s | {j['frames']:,.0f} frames | {j['fps']:,.0f} fps"
    if "target_return" in j:
        target = j["target_return"]
        if j.get("target_frames") is not None:
            times.append(j["target_wall_seconds"])
            frames.append(j["target_frames"])
            line += (f" | target {target:g} at {j['target_wall_seconds']:.1f} s, {j['target_frames']:,.0f} frames, "
                     f"{j['target_learner_steps']:,.0f} learner steps")
        else:
            line += f" | target {target:g} not reached"
    print(line)
if target is not None:
    n = len([s for s in seeds if os.path.exists(os.path.join(root, f"seed{s}", "summary.json"))])
    if times:
        print(f"time to {target:g}: {len(times)} of {n} seeds; median {statistics.median(times):.1f} s "
              f"(range {min(times):.1f}-{max(times):.1f} s), median {statistics.median(frames):,.0f} frames "
              f"(range {min(frames):,.0f}-{max(frames):,.0f})")
    else:
        print(f"time to {target:g}: no seed of {n} reached it")
PY
