#!/bin/bash
# Evaluates one checkpoint over several evaluation seeds and prints each
# seed's mean return and, over all their episodes, the mean with its standard
# error: one seed's 40 or 100 episodes say too little for a target near the
# measured rate (e.g. Football's goals per episode against 0.7).
#   bench/eval-seeds.sh runs/X/checkpoint.pt "1 2 3 4 5 6 7 8" 40 --football-rewards scoring [--greedy]
# Extra arguments go to `seedrl eval` as they are. SEEDRL: the binary (default build/seedrl).
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 CHECKPOINT \"SEEDS\" EPISODES_PER_SEED [seedrl eval flags]" >&2
  exit 2
fi
checkpoint=$1 seeds=$2 episodes=$3
shift 3
bin=${SEEDRL:-build/seedrl}
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
for s in $seeds; do
  if ! line=$("$bin" eval --checkpoint "$checkpoint" --episodes "$episodes" --seed "$s" --json "$@" 2>"$err"); then
    echo "seed $s: seedrl eval failed; its message:" >&2
    tail -n 2 "$err" >&2
    exit 1
  fi
  echo "$s $line" >> "$out"
done
python3 - "$out" <<'PY'
import json, math, sys
rows = []
outcomes = {}  # how the episodes ended, where the env says (Football)
for text in open(sys.argv[1]):
    seed, obj = text.split(" ", 1)
    j = json.loads(obj)
    rows.append((seed, j["episodes"], j["episode_return_mean"], j["episode_return_std"], j["episode_length_mean"]))
    for how, count in j.get("episode_outcomes", {}).items():
        outcomes[how] = outcomes.get(how, 0) + count
    print(f"seed {seed}: {j['episodes']} episodes | return {j['episode_return_mean']:.3f} "
          f"(std {j['episode_return_std']:.3f}) | mean length {j['episode_length_mean']:.1f}")
n = sum(r[1] for r in rows)
mean = sum(r[1] * r[2] for r in rows) / n
# Every episode's squared deviation from the overall mean, from each seed's
# mean and spread: the standard error of the mean over all n episodes.
ss = sum(r[1] * (r[3] ** 2 + (r[2] - mean) ** 2) for r in rows)
se = math.sqrt(ss / (n - 1) / n) if n > 1 else float("nan")
print(f"all: {n} episodes over {len(rows)} seeds | return {mean:.3f} ± {se:.3f} (standard error)")
if outcomes:
    print("ended: " + ", ".join(f"{how} {c / n:.3f} ({c}/{n})" for how, c in sorted(outcomes.items(), key=lambda o: -o[1])))
PY
