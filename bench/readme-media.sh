#!/bin/bash
# The README's pictures, from real runs: three seeds of MinAtar Breakout
# (configs/minatar-breakout.toml) with a video of the trained agent, their
# report as a screenshot in headless Chromium, and the video as a GIF.
#   bench/readme-media.sh [RUNS_DIR]     # ~15 min on 2 cores
# Writes docs/images/report-minatar-breakout.png and
# docs/images/minatar-breakout.gif. SEEDRL: the binary (default build/seedrl).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SEEDRL:-build/seedrl}
runs=${1:-runs/readme}
mkdir -p "$runs" docs/images
for s in 1 2 3; do
  [ -f "$runs/breakout-s$s/summary.json" ] ||
    "$bin" train --config configs/minatar-breakout.toml --seed "$s" --logdir "$runs/breakout-s$s" --record-every-s 600
done
"$bin" report "$runs"/breakout-s1 "$runs"/breakout-s2 "$runs"/breakout-s3 -o "$runs/report.html"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# The flags after --no-first-run keep Chromium off the network (it would
# otherwise hang on refused connections on a machine without one).
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --window-size=1100,1500 \
  --virtual-time-budget=5000 --screenshot="$PWD/docs/images/report-minatar-breakout.png" \
  "file://$(realpath "$runs/report.html")" 2>/dev/null
"$bin" eval --checkpoint "$runs/breakout-s1/checkpoint.pt" --episodes 1 --seed 1 --record docs/images/minatar-breakout.gif
ls -l docs/images/report-minatar-breakout.png docs/images/minatar-breakout.gif
