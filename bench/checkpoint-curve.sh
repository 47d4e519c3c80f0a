#!/bin/bash
# A learning curve in the task's own score when training shapes the reward
# (Football's checkpoint rings): a run keeps only its newest checkpoint, so
# `keep` copies each one the run writes into LOGDIR/curve/ under its frame
# count, and `eval` plays every copy with `seedrl eval` and prints frames,
# mean return and its standard error per copy.
#   bench/checkpoint-curve.sh keep runs/X &        # beside `seedrl train --logdir runs/X`; stops when the run does
#   bench/checkpoint-curve.sh eval runs/X 8 --football-rewards scoring [--every 2] [more seedrl eval flags]
# `keep` polls every 20 s (a run writes a checkpoint every --checkpoint-every-s
# and at its end) and stops when the run writes LOGDIR/summary.json or its
# process is gone. SEEDRL: the binary (default build/seedrl).
set -euo pipefail
usage() {
  echo "usage: $0 keep LOGDIR | $0 eval LOGDIR EPISODES [--every K] [seedrl eval flags]" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
cmd=$1 logdir=$2
shift 2
bin=${SEEDRL:-build/seedrl}
# A run holds LOGDIR/.seedrl.lock while it lives (src/trainer/run_lock.h),
# whether its logdir came from --logdir or a config file. `keep` may start
# beside a run that has not made its logdir yet: it waits for one while a
# process with that --logdir is alive.
run_alive() {
  if [[ -e $logdir/.seedrl.lock ]] && ! flock -n "$logdir/.seedrl.lock" true; then return 0; fi
  pgrep -f -- "--logdir $logdir( |$)" > /dev/null
}
if [[ $cmd == keep ]]; then
  for _ in $(seq 60); do
    if [[ -d $logdir ]] || ! run_alive; then break; fi
    sleep 1
  done
fi
[[ -d $logdir ]] || { echo "$0: no logdir '$logdir'" >&2; exit 2; }

# The frame count in a checkpoint's index (src/io/checkpoint.cc's layout).
frames_of() {
  python3 - "$1" <<'PY'
import json, struct, sys
with open(sys.argv[1], "rb") as f:
    head = f.read(28)
    if len(head) < 28 or head[:8] != b"SEEDRLC2":
        sys.exit(f"{sys.argv[1]}: not a seedrl checkpoint")
    (index_len,) = struct.unpack("<Q", head[8:16])
    print(json.loads(f.read(index_len))["counters"]["frames"])
PY
}

case $cmd in
  keep)
    mkdir -p "$logdir/curve"
    last=""
    # A resumed run (`--resume` with a larger --max-frames) starts with the
    # summary of its earlier end in place: only a summary written since
    # `keep` began marks this run's end.
    started=$(date +%s)
    while :; do
      done_now=0
      if [[ -e $logdir/summary.json ]] && (($(stat -c %Y "$logdir/summary.json") >= started)); then done_now=1; fi
      run_alive || done_now=1
      if [[ -e $logdir/checkpoint.pt ]]; then
        stamp=$(stat -c %Y "$logdir/checkpoint.pt")
        if [[ $stamp != "$last" ]]; then
          tmp="$logdir/curve/.copy"
          cp "$logdir/checkpoint.pt" "$tmp"
          if f=$(frames_of "$tmp" 2>/dev/null); then
            kept="$logdir/curve/checkpoint-$(printf %012d "$f").pt"
            mv "$tmp" "$kept"
            echo "kept $kept"
            last=$stamp
          fi
        fi
      fi
      [[ $done_now == 1 ]] && break
      sleep 20
    done
    rm -f "$logdir/curve/.copy"
    ;;
  eval)
    [[ $# -ge 1 ]] || usage
    episodes=$1
    shift
    every=1
    if [[ ${1:-} == --every ]]; then
      every=$2
      shift 2
    fi
    err=$(mktemp)
    trap 'rm -f "$err"' EXIT
    i=0
    echo "frames episodes return_mean standard_error"
    for c in "$logdir"/curve/checkpoint-*.pt; do
      [[ -e $c ]] || { echo "$0: no checkpoints in $logdir/curve (run 'keep' beside the training run)" >&2; exit 1; }
      i=$((i + 1))
      (( (i - 1) % every == 0 )) || continue
      if ! line=$("$bin" eval --checkpoint "$c" --episodes "$episodes" --json "$@" 2>"$err"); then
        echo "$c: seedrl eval failed; its message:" >&2
        tail -n 2 "$err" >&2
        exit 1
      fi
      name=${c##*/checkpoint-}
      python3 - "$((10#${name%.pt}))" "$line" <<'PY'
import json, math, sys
j = json.loads(sys.argv[2])
n = j["episodes"]
se = j["episode_return_std"] / math.sqrt(n - 1) if n > 1 else float("nan")
print(f"{sys.argv[1]} {n} {j['episode_return_mean']:.3f} {se:.3f}")
PY
    done
    ;;
  *) usage ;;
esac
