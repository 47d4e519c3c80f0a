#!/usr/bin/env bash
# Adversarial scenarios against a seedrl binary; prints a markdown table.
#
#   bench/adversarial/run.sh BIN [scenario...]
#
# Scenarios: actors-killed malformed-frames learner-killed bad-inputs full-disk
# fd-flood (default: all, in that order). QUICK=1 runs each with small counts.
# Each scenario's full output goes to $ADV_LOGS (default: a temporary directory,
# kept and named at the end). Everything runs on 127.0.0.1; full-disk needs root.
set -uo pipefail

if [[ $# -lt 1 || ! -x "$1" ]]; then
  echo "usage: $0 BIN [actors-killed|malformed-frames|learner-killed|bad-inputs|full-disk|fd-flood ...]" >&2
  exit 2
fi
BIN=$(readlink -f "$1")
shift
HERE=$(cd "$(dirname "$0")" && pwd)
ALL=(actors-killed malformed-frames learner-killed bad-inputs full-disk fd-flood)
SCENARIOS=("$@")
[[ ${#SCENARIOS[@]} -eq 0 ]] && SCENARIOS=("${ALL[@]}")

LOGS=${ADV_LOGS:-$(mktemp -d /tmp/seedrl-adversarial-XXXXXX)}
mkdir -p "$LOGS"
child=
cleanup() {
  # The scenario scripts clean up their own processes and temp dirs on SIGTERM.
  if [[ -n $child ]] && kill -0 "$child" 2>/dev/null; then
    kill -TERM "$child" 2>/dev/null
    wait "$child" 2>/dev/null
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

args_for() {
  local quick=${QUICK:-0}
  case $1 in
    actors-killed)    [[ $quick == 1 ]] && echo "--kills 10" || echo "--kills 40" ;;
    malformed-frames) [[ $quick == 1 ]] && echo "--frames 2000" || echo "--frames 10000" ;;
    learner-killed)   [[ $quick == 1 ]] && echo "--trials 6" || echo "--trials 20" ;;
    bad-inputs)       echo "" ;;
    full-disk)        [[ $quick == 1 ]] && echo "--free-kb 0,64,1024" || echo "" ;;
    fd-flood)         [[ $quick == 1 ]] && echo "--hold-s 8" || echo "" ;;
  esac
}

rows=()
start=$(date +%s)
for s in "${SCENARIOS[@]}"; do
  script="$HERE/${s//-/_}.py"
  if [[ ! -f $script ]]; then
    echo "unknown scenario '$s' (known: ${ALL[*]})" >&2
    exit 2
  fi
  echo "== $s ($(date +%T))" >&2
  t0=$(date +%s)
  # shellcheck disable=SC2046
  timeout -k 10 1200 python3 "$script" "$BIN" $(args_for "$s") >"$LOGS/$s.out" 2>"$LOGS/$s.err" &
  child=$!
  wait "$child"
  rc=$?
  child=
  line=$(grep -E "^$s \| " "$LOGS/$s.out" | tail -n 1)
  [[ -z $line ]] && line="$s | - | - | no result (script exit $rc; see $LOGS/$s.err)"
  rows+=("| $line | $(( $(date +%s) - t0 )) s |")
  grep -v -E "^$s \| " "$LOGS/$s.out" | head -n 80 >&2
  grep -v '^$' "$LOGS/$s.err" | tail -n 20 >&2
done

echo
echo "seedrl adversarial scenarios: $BIN ($(date -u +%F), $(nproc) CPUs, $(( $(date +%s) - start )) s)"
echo
echo "| scenario | trials | failures | key numbers | time |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "logs: $LOGS" >&2
