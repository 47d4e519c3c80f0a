#!/bin/bash
# End-to-end frames/s of two seedrl binaries (say, before and after a change),
# alternated back to back so both see the same machine: PAIRS rounds of
# `bench --sweep actors=N` (the end-to-end stage alone) per env. Prints every
# run, each arm's mean and standard deviation, and the difference; the spread
# within an arm is the run-to-run noise the difference is judged against.
#   bench/ab-end-to-end.sh BEFORE AFTER [PAIRS] [SECONDS]
#   bench/ab-end-to-end.sh /tmp/seedrl-before build/seedrl 5 10
# ENVS: "env:actors:envs-per-actor ..." (default cartpole and minatar:breakout
# at their README settings).
set -euo pipefail
before=$1; after=$2; pairs=${3:-5}; seconds=${4:-10}
envs=${ENVS:-"cartpole:32:8 minatar:breakout:32:4"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

e2e() {  # e2e BIN ENV ACTORS EPA -> frames/s
  "$1" bench --env "$2" --sweep "actors=$3" --envs-per-actor "$4" --seconds "$seconds" --json "$out/r.json" \
    >/dev/null 2>&1
  python3 -c 'import json,sys; print("%.0f" % json.load(open(sys.argv[1]))["runs"][0]["end_to_end_frames_per_s"])' \
    "$out/r.json"
}

for spec in $envs; do
  epa=${spec##*:}; rest=${spec%:*}; actors=${rest##*:}; env=${rest%:*}
  a=(); b=()
  for i in $(seq 1 "$pairs"); do
    x=$(e2e "$before" "$env" "$actors" "$epa"); y=$(e2e "$after" "$env" "$actors" "$epa")
    echo "$env pair $i: before $x frames/s | after $y frames/s"
    a+=("$x"); b+=("$y")
  done
  python3 - "$env" "${a[*]}" "${b[*]}" <<'PY'
import statistics as st, sys
env = sys.argv[1]; a = [float(x) for x in sys.argv[2].split()]; b = [float(x) for x in sys.argv[3].split()]
ma, mb = st.mean(a), st.mean(b)
sa = st.stdev(a) if len(a) > 1 else 0.0; sb = st.stdev(b) if len(b) > 1 else 0.0
print(f"{env}: before {ma:.0f} ± {sa:.0f} ({100*sa/ma:.1f}%), after {mb:.0f} ± {sb:.0f} ({100*sb/mb:.1f}%), "
      f"difference {100*(mb-ma)/ma:+.1f}%")
PY
done
