#!/bin/bash
# Training steps/s of two seedrl binaries (say, before and after a learner
# change) from the same point of a finished or stopped run, alternated back
# to back: each round resumes a fresh copy of RUN (its checkpoint and, for a
# replay algorithm, its full replay) for STEPS more env steps and measures
# steps/s over the last 4/5 of them (the first fifth warms up). A run that
# starts afresh trains on a small replay; from a late checkpoint the replay is
# as large as it is for most of a real run, and sampling from it costs more.
#   bench/ab-resume.sh BEFORE AFTER RUN [PAIRS] [STEPS]
#   bench/ab-resume.sh /tmp/seedrl-before build/seedrl runs/sac-walker2d-fp32-s2 2 25000
# The copies go in a temporary folder (about the run's size, replay included)
# and are removed.
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 BEFORE AFTER RUN [PAIRS] [STEPS]" >&2
  exit 2
fi
before=$1; after=$2; run=$3; pairs=${4:-2}; steps=${5:-25000}
for f in "$run/checkpoint.pt" "$run/config.toml"; do
  [[ -f $f ]] || { echo "$0: $f: not found (RUN must be a run's --logdir)" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

resumed() {  # resumed BIN -> steps/s
  rm -rf "$out/run"
  cp -r "$run" "$out/run"
  rm -f "$out/run/.seedrl.lock"
  local frames
  frames=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["frames"])' "$run/summary.json")
  if ! "$1" train --config "$out/run/config.toml" --logdir "$out/run" --resume --max-frames $((frames + steps)) \
    --report-every-s 0 >"$out/log" 2>&1; then
    echo "$1: train failed; its last lines:" >&2
    tail -n 3 "$out/log" >&2
    exit 1
  fi
  python3 - "$out/run/metrics.jsonl" "$frames" "$steps" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
start = int(sys.argv[2]) + int(sys.argv[3]) // 5
a = min((r for r in rows if r.get("frames", 0) >= start), key=lambda r: r["frames"])
b = max(rows, key=lambda r: r["frames"])
print("%.1f" % ((b["frames"] - a["frames"]) / (b["wall_seconds"] - a["wall_seconds"])))
PY
}

: >"$out/before"
: >"$out/after"
for ((i = 1; i <= pairs; ++i)); do
  b=$(resumed "$before"); echo "round $i before: $b steps/s"; echo "$b" >>"$out/before"
  a=$(resumed "$after"); echo "round $i after:  $a steps/s"; echo "$a" >>"$out/after"
done
python3 - "$out/before" "$out/after" <<'PY'
import statistics, sys
b = [float(x) for x in open(sys.argv[1])]
a = [float(x) for x in open(sys.argv[2])]
print("before %.1f, after %.1f steps/s (means of %d); after/before %.3f" %
      (statistics.mean(b), statistics.mean(a), len(b), statistics.mean(a) / statistics.mean(b)))
PY
