#!/bin/bash
# Learner processes on loopback (docs/cluster.md): for each world size, one
# run per seed of that many `seedrl train` processes on this host, to a
# target; prints per run the wall time and frames to the target (rank 0's
# summary.json), the whole run's frames/s, and rank 0's share of learner
# time in collectives (its "learner ranks: per update" line).
#   bench/learner-processes.sh "1 2 3" "1 2 3" --config configs/cartpole.toml --target-return 475 --stop-at-target
# (world sizes, seeds, then the flags every rank gets). SEEDRL: the binary
# (default build/seedrl). World size 1 is a plain one-process run.
set -euo pipefail
worlds=$1 seeds=$2
shift 2
bin=${SEEDRL:-build/seedrl}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
port=$((29700 + RANDOM % 200))
for w in $worlds; do
  for s in $seeds; do
    dir="$root/w$w-s$s"
    port=$((port + 1))
    pids=()
    for ((r = 0; r < w; r++)); do
      group=()
      ((w > 1)) && group=(--rank "$r" --world-size "$w" --master-port "$port")
      "$bin" train "$@" --seed "$s" --logdir "$dir" --report-every-s 0 "${group[@]}" > "$dir.rank$r.log" 2>&1 &
      pids+=($!)
    done
    status=0
    for p in "${pids[@]}"; do wait "$p" || status=$?; done
    python3 - "$dir" "$dir.rank0.log" "$w" "$s" "$status" << 'PY'
import json, re, sys
d, log, w, s, status = sys.argv[1:]
try:
    j = json.load(open(d + "/summary.json"))
except OSError:
    print(f"world {w} seed {s}: no summary.json (exit {status})")
    sys.exit(0)
m = re.search(r"per update ([0-9.]+) ms agreeing .* and ([0-9.]+) ms waiting .* beside ([0-9.]+) ms of update \(([0-9]+)% in collectives\)",
              open(log).read())
coll = f" | collectives {m.group(4)}% (agree {m.group(1)} + all-reduce {m.group(2)} ms of {float(m.group(1)) + float(m.group(2)) + float(m.group(3)):.2f} ms)" if m else ""
tgt = f" | target at {j['target_wall_seconds']:.1f} s, {j['target_frames']:,} frames" if "target_wall_seconds" in j else " | target not reached"
print(f"world {w} seed {s}: {j['wall_seconds']:.1f} s, {j['frames']:,} frames, {j['fps']:,.0f} fps{tgt}{coll} (exit {status})")
PY
  done
done
