#!/bin/bash
# Runs the whole test suite several times beside a CPU hog, as a loaded CI
# machine would: a test that waits for time instead of for its condition shows
# up here, not alone.
#   bench/ci-under-load.sh BUILD_DIR [RUNS=5] [JOBS=8] [HOGS=4]
# Prints one line per run and a total; exits nonzero if any run failed.
# The log of each run is kept in BUILD_DIR/ci-under-load/run-N.log.
set -uo pipefail
if (($# < 1)); then
  echo "usage: bench/ci-under-load.sh BUILD_DIR [RUNS=5] [JOBS=8] [HOGS=4]" >&2
  exit 2
fi
build=$1
runs=${2:-5}
jobs=${3:-8}
hogs=${4:-4}
for n in "$runs" "$jobs" "$hogs"; do
  if [[ ! $n =~ ^[1-9][0-9]*$ ]]; then
    echo "ci-under-load: RUNS, JOBS and HOGS must be positive integers, got '$n'" >&2
    exit 2
  fi
done
if ! command -v stress-ng > /dev/null; then
  echo "ci-under-load: stress-ng is missing: apt-get install stress-ng" >&2
  exit 2
fi
if [[ ! -f "$build/CTestTestfile.cmake" ]]; then
  echo "ci-under-load: $build is not a configured build directory" >&2
  exit 2
fi
logs="$build/ci-under-load"
mkdir -p "$logs"

stress-ng --cpu "$hogs" --quiet &
hog=$!
trap 'kill "$hog" 2> /dev/null; wait "$hog" 2> /dev/null' EXIT

passed=0
for ((i = 1; i <= runs; ++i)); do
  log="$logs/run-$i.log"
  start=$SECONDS
  ctest --test-dir "$build" -j"$jobs" --timeout 600 --output-on-failure > "$log" 2>&1
  status=$?
  summary=$(grep -E '[0-9]+% tests passed' "$log" | tail -1)
  if ((status == 0)); then
    passed=$((passed + 1))
    echo "run $i: PASS in $((SECONDS - start)) s: ${summary:-no summary}"
  else
    failed=$(sed -n '/The following tests FAILED/,$p' "$log" | grep -E '^\s+[0-9]+ - ' | sed -E 's/^\s+[0-9]+ - //' |
             paste -sd ';' -)
    echo "run $i: FAIL in $((SECONDS - start)) s: ${summary:-no summary}: ${failed:-see $log}"
  fi
done
echo "total: $passed of $runs runs passed (ctest -j$jobs beside stress-ng --cpu $hogs; logs in $logs)"
((passed == runs))
