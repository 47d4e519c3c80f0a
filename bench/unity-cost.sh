#!/usr/bin/env bash
# What compiling LibTorch sources in unity batches saves: for each unity
# batch of a target (cmake/SeedrlTorchSources.cmake), compiles its sources one
# by one, then the batch as the build does, and prints the compiler's user and
# system CPU seconds for both. CPU time, not wall time, so a busy machine
# changes the figures less.
#   bash bench/unity-cost.sh BUILD_DIR TARGET
#   bash bench/unity-cost.sh build seedrl_net
set -euo pipefail
build=${1:?usage: unity-cost.sh BUILD_DIR TARGET}
target=${2:?usage: unity-cost.sh BUILD_DIR TARGET}
[ -f "$build/compile_commands.json" ] || { echo "unity-cost.sh: no $build/compile_commands.json (configure first)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One line per batch: the batch's file, then its compile command.
python3 - "$build/compile_commands.json" "$target" > "$tmp/batches" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1])):
    if f"/{sys.argv[2]}.dir/Unity/" in e["file"]:
        print(e["file"] + "\t" + e["command"])
PY
[ -s "$tmp/batches" ] || { echo "unity-cost.sh: $target has no unity batches in $build (SEEDRL_UNITY_BUILD=OFF?)" >&2; exit 1; }
cputime() {  # cputime SOURCE COMMAND -> "user sys"
  local cmd
  cmd=$(sed -E "s| -o [^ ]+| -o $tmp/x.o|; s| -c [^ ]+$| -c $1|" <<<"$2")
  (cd "$build" && /usr/bin/time -f "%U %S" -o "$tmp/t" bash -c "$cmd" >/dev/null 2>"$tmp/err") \
    || { cat "$tmp/err" >&2; exit 1; }
  cat "$tmp/t"
}
printf '%-40s %8s %18s %18s\n' batch sources "alone user/sys s" "batch user/sys s"
while IFS=$'\t' read -r batch cmd; do
  mapfile -t sources < <(sed -n 's/^#include "\(.*\)"$/\1/p' "$batch")
  au=0; as=0
  for source in "${sources[@]}"; do
    read -r u s <<<"$(cputime "$source" "$cmd")"
    au=$(echo "$au + $u" | bc); as=$(echo "$as + $s" | bc)
  done
  read -r bu bs <<<"$(cputime "$batch" "$cmd")"
  printf '%-40s %8d %18s %18s\n' "$(basename "$batch")" "${#sources[@]}" "$au/$as" "$bu/$bs"
done < "$tmp/batches"
