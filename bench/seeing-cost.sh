#!/bin/bash
# What seeing a run costs its training speed: the same training run without
# (report at the end only, no videos, no evaluation, no dashboard) and with
# the report refreshed, a video recorded and the policy evaluated every
# PERIOD seconds and the live dashboard served (unpolled: a page costs only
# while open),
# alternated back to back so both see the same machine. Prints each run's
# frames/s (frames / wall seconds from summary.json), each arm's mean, and
# the difference; the spread within an arm is the run-to-run noise.
#   bench/seeing-cost.sh [PAIRS] [PERIOD] [train flags...]
#   bench/seeing-cost.sh 3 10 --config configs/minatar-breakout.toml --max-frames 2000000
# SEEDRL: the binary (default build/seedrl).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-3}; shift || true
period=${1:-10}; shift || true
[ $# -gt 0 ] || set -- --config configs/minatar-breakout.toml --max-frames 2000000
bin=${SEEDRL:-build/seedrl}
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT

run() {  # run NAME FLAGS... -> prints frames/s
  local dir="$logdir/$1"; shift
  "$bin" train "$@" --logdir "$dir" --checkpoint-every-s "$period" >/dev/null 2>&1
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("%.0f" % (s["frames"] / s["wall_seconds"]))' \
    "$dir/summary.json"
}

off=(); on=()
for i in $(seq 1 "$pairs"); do
  a=$(run "off$i" "$@" --report-every-s 0)
  b=$(run "on$i" "$@" --report-every-s "$period" --record-every-s "$period" --eval-every-s "$period" --eval-episodes 3 \
        --dashboard 0)
  [ -s "$logdir/on$i/video.gif" ] || { echo "run on$i left no video.gif" >&2; exit 1; }
  echo "pair $i: without $a frames/s | with report, video, evaluation every ${period}s and dashboard $b frames/s"
  off+=("$a"); on+=("$b")
done
python3 - "${off[*]}" "${on[*]}" <<'PY'
import statistics as st, sys
off = [float(x) for x in sys.argv[1].split()]; on = [float(x) for x in sys.argv[2].split()]
mo, mn = st.mean(off), st.mean(on)
spread = lambda v: (max(v) - min(v)) / st.mean(v) * 100
print(f"without: mean {mo:.0f} frames/s (spread {spread(off):.1f}%) | with: mean {mn:.0f} (spread {spread(on):.1f}%)")
print(f"cost: {(mo - mn) / mo * 100:+.1f}% frames/s")
PY
