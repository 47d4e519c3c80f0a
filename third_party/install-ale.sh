#!/usr/bin/env bash
# Builds and installs the C++ library of the Arcade Learning Environment (ALE)
# for seedrl's atari:* environments.
#
#   third_party/install-ale.sh SRC [PREFIX]
#
# SRC is ALE's source: a directory (a clone of the public repository at tag
# v0.12.1) or its source tarball (e.g. ../shared/ale/ale-0.12.1-src.tar.gz).
# PREFIX defaults to /opt/ale, which the top-level CMakeLists.txt searches by
# itself; for any other prefix configure seedrl with -DALE_ROOT=PREFIX.
# Release build, no Python, no SDL: needs only cmake and zlib1g-dev. Without
# link-time optimization: ALE turns it on for Release, which leaves libale.a
# holding compiler IR only, so every program linked with it would compile all
# of ALE again at its own link (about a minute each).
# Does nothing when PREFIX already holds the same ALE version.
# Uses ccache when it is installed; ALE_JOBS sets the parallelism (default: nproc).
set -euo pipefail

die() { echo "install-ale: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: install-ale.sh SRC [PREFIX] (SRC: ALE source directory or .tar.gz)"
src="$1"
prefix="${2:-/opt/ale}"
[ -e "$src" ] || die "ALE source '$src' does not exist"
command -v cmake >/dev/null || die "cmake is not installed (apt-get install cmake)"
[ -f /usr/include/zlib.h ] || die "zlib.h is missing (apt-get install zlib1g-dev)"

work="$(mktemp -d "${TMPDIR:-/tmp}/install-ale.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The version SRC holds, read without unpacking a tarball.
if [ -d "$src" ]; then
  [ -f "$src/version.txt" ] && [ -f "$src/src/ale/ale_interface.hpp" ] \
    || die "'$src' is not an ALE source directory (no version.txt or src/ale/ale_interface.hpp)"
  version="$(tr -d '[:space:]' < "$src/version.txt")"
else
  version="$(tar -xzOf "$src" --wildcards '*/version.txt' 2>/dev/null | tr -d '[:space:]')" \
    || die "'$src' is not an ALE source tarball (no version.txt inside)"
  [ -n "$version" ] || die "'$src' is not an ALE source tarball (empty version.txt)"
fi

stamp="$prefix/lib/cmake/ale/ale-config-version.cmake"
if [ -f "$stamp" ] && [ -f "$prefix/lib/libale.a" ] \
   && grep -q "PACKAGE_VERSION \"$version\"" "$stamp"; then
  echo "install-ale: ALE $version already installed in $prefix"
  exit 0
fi

if [ -d "$src" ]; then
  srcdir="$(cd "$src" && pwd)"
else
  tar -xzf "$src" -C "$work"
  srcdir="$(dirname "$(find "$work" -maxdepth 2 -name version.txt -print -quit)")"
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
echo "install-ale: building ALE $version from $src into $prefix"
cmake -S "$srcdir" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_PYTHON_LIB=OFF -DSDL_SUPPORT=OFF -DBUILD_VECTOR_LIB=OFF -DCMAKE_INTERPROCEDURAL_OPTIMIZATION_RELEASE=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib "${launcher[@]}" >/dev/null
cmake --build "$work/build" -j"${ALE_JOBS:-$(nproc)}"
cmake --install "$work/build" >/dev/null
echo "install-ale: ALE $version installed in $prefix"
