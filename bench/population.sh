#!/bin/bash
# Best-of-N seeds within one budget: trains each seed until SELECT agent steps
# (its schedules still spanning --max-frames), ranks the seeds by a training
# metric over their last WINDOW steps, and carries the best one on with
# `seedrl train --resume` to its --max-frames. The whole population's steps
# count against the budget: N x SELECT + (max-frames - SELECT).
#   KEEP=runs/pop bench/population.sh "5 6 7 8" 800000 ended_goal \
#     --config configs/football-academy_run_to_score_with_keeper-shot-hold-half.toml
# METRIC: a key of metrics.jsonl (ended_goal, episode_return_mean, ...), higher
# is better. KEEP (required) holds DIR/seedN; a seed already past SELECT there
# is not trained again, so an interrupted population picks up where it stopped.
# WINDOW (default 100000) steps of metrics per seed; CARRY=0 stops after the
# ranking; POLL_S (default 10) seconds between looks at a run's steps.
# SEEDRL: the binary (default build/seedrl).
set -euo pipefail
if [[ $# -lt 3 || -z "${KEEP:-}" ]]; then
  echo "usage: KEEP=DIR $0 \"SEEDS\" SELECT METRIC [seedrl train flags]" >&2
  exit 2
fi
seeds=$1 select=$2 metric=$3; shift 3
bin=${SEEDRL:-build/seedrl}
window=${WINDOW:-100000}
mkdir -p "$KEEP"

# The agent steps of a run's last metrics row (0 when it has none).
last_frames() {
  [[ -s $1/metrics.jsonl ]] || { echo 0; return; }
  tail -n 1 "$1/metrics.jsonl" | python3 -c 'import json,sys; print(int(json.loads(sys.stdin.read())["frames"]))'
}

for s in $seeds; do
  dir=$KEEP/seed$s
  if (( $(last_frames "$dir") >= select )); then
    echo "seed $s: already past $select steps in $dir"
    continue
  fi
  args=(--seed "$s" --logdir "$dir" "$@")
  [[ -f $dir/checkpoint.pt ]] && args=(--resume --logdir "$dir")
  "$bin" train "${args[@]}" >> "$KEEP/seed$s.log" 2>&1 &
  pid=$!
  # SIGINT ends a run with its checkpoint; the schedules stay those of --max-frames.
  while kill -0 "$pid" 2> /dev/null; do
    if (( $(last_frames "$dir") >= select )); then kill -INT "$pid"; break; fi
    sleep "${POLL_S:-10}"
  done
  rc=0; wait "$pid" || rc=$?
  if (( rc != 0 && rc != 130 )); then  # 130: interrupted, checkpoint saved
    echo "seed $s: train failed (exit $rc); its last lines:"; tail -n 3 "$KEEP/seed$s.log"; exit 1
  fi
  echo "seed $s: stopped at $(last_frames "$dir") steps"
done

best=$(python3 - "$KEEP" "$select" "$window" "$metric" $seeds <<'PY'
import json, os, sys
root, select, window, metric, seeds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
scores = {}
for s in seeds:
    rows = [json.loads(l) for l in open(os.path.join(root, f"seed{s}", "metrics.jsonl")) if l.strip()]
    vals = [r[metric] for r in rows if r.get(metric) is not None and select - window <= r["frames"] <= select]
    if not vals:
        sys.exit(f"seed {s}: no {metric} in its metrics between {select - window} and {select} steps")
    scores[s] = sum(vals) / len(vals)
for s in sorted(scores, key=scores.get, reverse=True):
    print(f"seed {s}: {metric} {scores[s]:.3f} over steps {select - window}-{select}", file=sys.stderr)
print(max(scores, key=scores.get))
PY
)
echo "best: seed $best ($KEEP/seed$best)"
[[ ${CARRY:-1} == 0 ]] && exit 0
# An interrupted carry (130) keeps its checkpoint; count what the population used so far.
rc=0; "$bin" train --resume --logdir "$KEEP/seed$best" >> "$KEEP/seed$best.log" 2>&1 || rc=$?
if (( rc != 0 && rc != 130 )); then
  echo "seed $best: train --resume failed (exit $rc); its last lines:"; tail -n 3 "$KEEP/seed$best.log"; exit 1
fi
python3 - "$KEEP" "$select" "$best" $seeds <<'PY'
import json, os, sys
root, select, best, seeds = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
def frames(s):
    rows = [json.loads(l)["frames"] for l in open(os.path.join(root, f"seed{s}", "metrics.jsonl")) if l.strip()]
    # The others count to where they were ranked, even a run kept from elsewhere that went on.
    return int(rows[-1] if s == best else next((f for f in rows if f >= select), rows[-1]))
total = sum(frames(s) for s in seeds)
print(f"best seed {best} carried to {frames(best):,} steps; the population used {total:,} agent steps in all")
PY
