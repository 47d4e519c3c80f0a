#!/usr/bin/env bash
# What LibTorch's precompiled header costs a source that does not need it:
# compiles each given object's source twice, with the PCH force-included and
# without, and prints the compiler's user CPU seconds for both. CPU time, not
# wall time, so a busy machine changes the figures less.
#   bash bench/pch-cost.sh [BUILD_DIR] OBJECT...
#   bash bench/pch-cost.sh build test/CMakeFiles/seedrl_tests.dir/report/browser_test.cc.o
set -euo pipefail
build=${1:?usage: pch-cost.sh BUILD_DIR OBJECT...}
shift
pch=$(cd "$build" && pwd)/CMakeFiles/seedrl_util.dir/cmake_pch.hxx
[ -f "$pch.gch" ] || { echo "pch-cost.sh: $pch.gch not built (cmake --build $build first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-70s %10s %10s\n' object with_pch_s without_s
for object in "$@"; do
  cmd=$(cd "$build" && ninja -t commands "$object" | tail -1)
  [ -n "$cmd" ] || { echo "pch-cost.sh: $object: no such object in $build" >&2; exit 1; }
  bare=$(sed -E "s| -include [^ ]+cmake_pch.hxx||; s| -o [^ ]+| -o $tmp/x.o|; s| -MF [^ ]+| -MF $tmp/x.d|" <<<"$cmd")
  with="$bare -include $pch"
  t_with=$(cd "$build" && { /usr/bin/time -f %U bash -c "$with" >/dev/null 2>"$tmp/w.err"; tail -1 "$tmp/w.err"; })
  t_without=$(cd "$build" && { /usr/bin/time -f %U bash -c "$bare" >/dev/null 2>"$tmp/n.err"; tail -1 "$tmp/n.err"; })
  printf '%-70s %10s %10s\n' "$object" "$t_with" "$t_without"
done
