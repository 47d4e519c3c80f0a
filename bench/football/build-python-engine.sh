#!/usr/bin/env bash
# Builds gfootball's engine as its Python module (_gameplayfootball, with
# ai.cpp) from the source tarball, for bench/football/golden_traces.py.
#
#   bench/football/build-python-engine.sh SRC_TARBALL [BUILD_DIR]
#
# SRC_TARBALL: e.g. /work/shared/football/football-3d9e754-src.tar.gz; the
# restored textures (football-3d9e754-restored-textures.tar.gz) are read from
# beside it. BUILD_DIR defaults to /tmp/football-py. Leaves
#   BUILD_DIR/football-3d9e754/     unpacked, unmodified source (+ restored textures in its data/)
#   BUILD_DIR/build/                the engine's own CMake project (upstream CMakeLists.txt), built
#   BUILD_DIR/site/                 put this on PYTHONPATH: gfootball -> the source's gfootball/,
#                                   gfootball_engine/ = upstream __init__.py + _gameplayfootball.so
#                                   (+ data, fonts links, as setup.py lays the package out)
#   BUILD_DIR/env.sh                exports PYTHONPATH, GFOOTBALL_DATA_DIR, GFOOTBALL_FONT
# Uses Debian's /usr/bin/python3 (python3-dev, libboost-python-dev). Idempotent:
# a second run with the same tarballs only rebuilds what make finds stale.
set -euo pipefail

die() { echo "build-python-engine: $*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: build-python-engine.sh SRC_TARBALL [BUILD_DIR]"
src="$(readlink -f "$1")"
out="${2:-/tmp/football-py}"
[ -f "$src" ] || die "'$src' is not a file"
textures="$(dirname "$src")/$(basename "$src" -src.tar.gz)-restored-textures.tar.gz"
[ -f "$textures" ] || die "restored textures '$textures' are missing"
PY=/usr/bin/python3
[ -x "$PY" ] || die "no $PY (apt-get install python3-dev)"

NEEDED=(libsdl2-dev libsdl2-image-dev libsdl2-ttf-dev libsdl2-gfx-dev libboost-thread-dev
        libboost-system-dev libboost-filesystem-dev libgl1-mesa-dev libegl1-mesa-dev
        libboost-python-dev python3-dev python3-numpy python3-absl python3-six cmake)
missing=()
for pkg in "${NEEDED[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] || die "missing Debian packages (apt-get install ${missing[*]})"

mkdir -p "$out"
out="$(readlink -f "$out")"
top="$({ tar -tzf "$src" 2>/dev/null || true; } | head -n1)"; top="${top%%/*}"   # football-3d9e754
[ -n "$top" ] || die "'$src' is not a readable tarball"
stamp_text="$(md5sum < "$src" | cut -c1-32) $(md5sum < "$textures" | cut -c1-32)"
tree="$out/$top"
if [ ! -f "$out/unpack-stamp" ] || [ "$(cat "$out/unpack-stamp")" != "$stamp_text" ]; then
  rm -rf "$tree" "$out/build" "$out/site" "$out/unpack-stamp"
  tar -xzf "$src" -C "$out"
  tar -xzf "$textures" -C "$tree/third_party/gfootball_engine/data"
  echo "$stamp_text" > "$out/unpack-stamp"
fi
engine="$tree/third_party/gfootball_engine"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
if [ ! -f "$out/build/CMakeCache.txt" ]; then
  cmake -S "$engine" -B "$out/build" -DPython_EXECUTABLE="$PY" "${launcher[@]}"
fi
cmake --build "$out/build" -j"${FOOTBALL_JOBS:-$(nproc)}"
[ -f "$out/build/libgame.so" ] || die "the build made no libgame.so"

# The package layout setup.py installs: gfootball/ and gfootball_engine/
# (the engine dir's __init__.py, _gameplayfootball.so, fonts/; data/).
site="$out/site"
mkdir -p "$site/gfootball_engine/fonts"
ln -sfn "$tree/gfootball" "$site/gfootball"
cp "$engine/__init__.py" "$site/gfootball_engine/__init__.py"
cp "$out/build/libgame.so" "$site/gfootball_engine/_gameplayfootball.so"
ln -sfn "$engine/data" "$site/gfootball_engine/data"
cp "$tree/third_party/fonts/AlegreyaSansSC-ExtraBold.ttf" "$site/gfootball_engine/fonts/"
cat > "$out/env.sh" <<EOF
export PYTHONPATH="$site\${PYTHONPATH:+:\$PYTHONPATH}"
export GFOOTBALL_DATA_DIR="$engine/data"
export GFOOTBALL_FONT="$site/gfootball_engine/fonts/AlegreyaSansSC-ExtraBold.ttf"
EOF
echo "build-python-engine: built; source $out/env.sh and run $PY (add bench/football/stubs to PYTHONPATH)"
