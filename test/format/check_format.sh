#!/bin/bash
# The C++ sources are formatted as .clang-format says: clang-format 14 (Debian
# 12's) reformats nothing. Lists the files it would change and fails; prints
# the command that fixes them.
#   test/format/check_format.sh SOURCE_DIR        the tree's *.cc and *.h
#   test/format/check_format.sh --self-test       a misformatted file is caught
set -euo pipefail
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$cf" ]; then echo "clang-format not found (third_party/packages.txt installs it)" >&2; exit 1; fi
case "$("$cf" --version)" in *" version 14."*) ;; *) echo "need clang-format 14, found: $("$cf" --version)" >&2; exit 1;; esac

check() {  # check DIR FILES... -> nonzero if any file would change
  # One clang-format for all files (a process per file costs more than the
  # formatting); --Werror reports each file that would change as FILE:LINE:COL.
  local dir=$1; shift
  local out
  if out=$(cd "$dir" && "$cf" --style=file --dry-run --Werror "$@" 2>&1); then return 0; fi
  local bad
  bad=$(sed -n 's/^\([^: ]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$out" | sort -u | tr '\n' ' ')
  if [ -z "$bad" ]; then echo "$out" >&2; return 1; fi
  echo "not formatted: $bad" >&2
  echo "fix: clang-format-14 -i $bad" >&2
  return 1
}

if [ "${1:-}" = "--self-test" ]; then
  here=$(cd "$(dirname "$0")/../.." && pwd)
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  cp "$here/.clang-format" "$tmp/"
  printf 'int  main( ){return 0 ;}\n' > "$tmp/bad.cc"
  printf 'int main() { return 0; }\n' > "$tmp/good.cc"
  check "$tmp" good.cc || { echo "self-test: a formatted file was refused" >&2; exit 1; }
  if check "$tmp" bad.cc 2>/dev/null; then echo "self-test: a misformatted file passed" >&2; exit 1; fi
  echo "self-test passed"
  exit 0
fi

dir=${1:?usage: check_format.sh SOURCE_DIR | --self-test}
cd "$dir"
mapfile -t files < <(find include src test bench -name '*.cc' -o -name '*.h' | sort)
check "$dir" "${files[@]}"
echo "${#files[@]} files formatted"
