#!/bin/bash
# bench/population.sh on two CartPole seeds: the seed it carries must be the
# one with the higher mean return over the window (recomputed here from each
# run's metrics), carried to --max-frames, and the total it prints must be the
# loser's steps to the ranking point plus the winner's final steps.
set -euo pipefail
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(KEEP=$tmp/pop WINDOW=200000 POLL_S=0.2 SEEDRL=$build/seedrl bash "$root/bench/population.sh" "1 2" 200000 \
  episode_return_mean --env cartpole --actors 2 --max-frames 600000 --log-interval-s 0.05 --report-every-s 0 \
  --checkpoint-every-s 0 2>&1) || { echo "$out"; echo "population.sh failed"; exit 1; }
echo "$out"
python3 - "$tmp/pop" "$out" <<'PY'
import json, re, sys
root, out = sys.argv[1], sys.argv[2]
rows = {s: [json.loads(l) for l in open(f"{root}/seed{s}/metrics.jsonl") if l.strip()] for s in ("1", "2")}
mean = {}
for s, rs in rows.items():
    v = [r["episode_return_mean"] for r in rs if r.get("episode_return_mean") is not None and 0 <= r["frames"] <= 200000]
    assert v, f"seed {s}: no metrics rows up to 200000 steps"
    mean[s] = sum(v) / len(v)
best = re.search(r"^best: seed (\d)", out, re.M).group(1)
assert mean[best] == max(mean.values()), f"carried seed {best}, means {mean}"
other = "2" if best == "1" else "1"
final = rows[best][-1]["frames"]
assert final >= 600000, f"seed {best} carried only to {final}"
ranked = next(r["frames"] for r in rows[other] if r["frames"] >= 200000)
total = int(re.search(r"population used ([\d,]+) agent steps", out).group(1).replace(",", ""))
assert total == final + ranked, f"total {total} != {final} + {ranked}"
print("population_test: ok")
PY
