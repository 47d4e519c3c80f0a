#!/usr/bin/env bash
# Builds and installs the C++ game engine of Google Research Football
# (gfootball_engine) for seedrl's football environments.
#
#   third_party/install-football.sh SRC [PREFIX]
#
# SRC is gfootball's source: its source tarball (e.g.
# ../shared/football/football-3d9e754-src.tar.gz; the data files that tarball
# lacks are then unpacked from football-3d9e754-restored-textures.tar.gz beside
# it, or from $FOOTBALL_TEXTURES) or a directory (a clone of
# google-research/football).
# PREFIX defaults to /opt/football, which the top-level CMakeLists.txt searches
# by itself; for any other prefix configure seedrl with -DFOOTBALL_ROOT=PREFIX.
# Release build (-O3, asserts kept as upstream builds it) of everything but
# ai.cpp, the Python module: no Python, no Boost.Python. Installs
#   PREFIX/lib/libgfootball_engine.a            the engine, static, -fPIC
#   PREFIX/lib/cmake/football/                  find_package(football CONFIG):
#                                               football::engine, FOOTBALL_DATA_DIR, FOOTBALL_FONT
#   PREFIX/include/gfootball_engine/            the engine's src/ headers, same layout
#   PREFIX/share/football/data/                 what the engine loads at run time
#   PREFIX/share/football/fonts/AlegreyaSansSC-ExtraBold.ttf
#   PREFIX/share/football/licenses/             engine (Unlicense), gfootball (Apache-2.0), font (OFL)
# Needs the Debian packages in NEEDED below (listed in packages.txt).
# Does nothing when PREFIX already holds the same version from the same commit.
# Uses ccache when it is installed; FOOTBALL_JOBS sets the parallelism (default: nproc).
set -euo pipefail

die() { echo "install-football: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: install-football.sh SRC [PREFIX] (SRC: gfootball source directory or .tar.gz)"
src="$1"
prefix="${2:-/opt/football}"
[ -e "$src" ] || die "gfootball source '$src' does not exist"
command -v cmake >/dev/null || die "cmake is not installed (apt-get install cmake)"
command -v c++ >/dev/null || die "no C++ compiler (apt-get install build-essential)"

NEEDED=(libsdl2-dev libsdl2-image-dev libsdl2-ttf-dev libsdl2-gfx-dev libboost-thread-dev
        libboost-system-dev libboost-filesystem-dev libgl1-mesa-dev libegl1-mesa-dev)
missing=()
for pkg in "${NEEDED[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] || die "missing Debian packages (apt-get install ${missing[*]})"

# The version (setup.py) and commit SRC holds, read without unpacking a tarball.
engine_rel=third_party/gfootball_engine
if [ -d "$src" ]; then
  [ -f "$src/setup.py" ] && [ -f "$src/$engine_rel/src/game_env.hpp" ] \
    || die "'$src' is not a gfootball source directory (no setup.py or $engine_rel/src/game_env.hpp)"
  setup_py="$(cat "$src/setup.py")"
  commit="$(git -C "$src" rev-parse --short=7 HEAD 2>/dev/null || echo local)"
else
  setup_py="$(tar -xzOf "$src" --wildcards '*/setup.py' 2>/dev/null)" \
    || die "'$src' is not a gfootball source tarball (no setup.py inside)"
  top="$({ tar -tzf "$src" 2>/dev/null || true; } | head -n1)"
  top="${top%%/*}"                       # football-3d9e754
  [ -n "$top" ] || die "'$src' is not a readable tarball"
  commit="${top##*-}"
fi
version="$(sed -n "s/^ *version='\([^']*\)'.*/\1/p" <<<"$setup_py" | head -n1)"
[ -n "$version" ] || die "'$src': no version='...' in setup.py"

# The data files the public snapshot lacks, restored beside the source tarball.
textures="${FOOTBALL_TEXTURES:-}"
if [ -z "$textures" ] && [ -f "$src" ]; then
  candidate="$(dirname "$src")/$(basename "$src" -src.tar.gz)-restored-textures.tar.gz"
  [ -f "$candidate" ] && textures="$candidate"
fi
[ -z "$textures" ] || [ -f "$textures" ] || die "textures tarball '$textures' does not exist"

stamp="$prefix/share/football/install-stamp"
stamp_text="football $version $commit textures=$( [ -n "$textures" ] && md5sum < "$textures" | cut -c1-32 || echo none)"
if [ -f "$stamp" ] && [ -f "$prefix/lib/libgfootball_engine.a" ] \
   && [ -f "$prefix/lib/cmake/football/football-config.cmake" ] \
   && [ "$(cat "$stamp")" = "$stamp_text" ]; then
  echo "install-football: gfootball $version ($commit) already installed in $prefix"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/install-football.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ -d "$src" ]; then
  srcdir="$(cd "$src" && pwd)"
else
  tar -xzf "$src" -C "$work"
  srcdir="$work/$top"
  [ -f "$srcdir/$engine_rel/src/game_env.hpp" ] \
    || die "'$src' is not a gfootball source tarball (no $top/$engine_rel/src/game_env.hpp)"
fi
engine="$srcdir/$engine_rel"
font="$srcdir/third_party/fonts/AlegreyaSansSC-ExtraBold.ttf"
[ -f "$engine/sources.cmake" ] || die "'$engine/sources.cmake' is missing"
[ -f "$font" ] || die "font '$font' is missing"

# The data folder, staged so that a clone's tree is never written to.
mkdir -p "$work/data"
cp -a "$engine/data/." "$work/data/"
if [ -n "$textures" ]; then
  tar -xzf "$textures" -C "$work/data" || die "cannot unpack '$textures'"
fi
# The engine reads most of these even with rendering off, and a missing data
# file crashes it without a message.
for f in databases/default/images_teams/primeradivision/fcbarcelona_kit_02.bmp \
         databases/default/images_teams/primeradivision/realmadrid_kit_02.bmp \
         media/menu/main/loading01.bmp \
         media/objects/players/textures/goalie_kit.bmp \
         media/objects/players/textures/kit_UVWnormal.bmp \
         media/objects/players/textures/kit_template.bmp \
         media/objects/players/textures/referee_kit.bmp \
         media/textures/pitch/overlay.bmp \
         media/textures/pitch/seamlessgrass08.bmp; do
  [ -f "$work/data/$f" ] || die "data file '$engine_rel/data/$f' is missing (unpack football-3d9e754-restored-textures.tar.gz there, or set FOOTBALL_TEXTURES)"
done

# The engine's own CMakeLists.txt requires Python and Boost.Python for ai.cpp;
# this one builds the same sources (its sources.cmake) less ai.cpp into one
# static library and exports it as football::engine.
mkdir -p "$work/project"
cat > "$work/project/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(gfootball_engine CXX)
set(CMAKE_CXX_STANDARD 14)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
include("${ENGINE}/sources.cmake")
set(_sources)
foreach(_list BASE_SOURCES SYSTEMS_GRAPHICS_SOURCES LOADERS_SOURCES TYPES_SOURCES SCENE_SOURCES
        UTILS_SOURCES UTILS_GUI2_SOURCES BLUNTED_CORE_SOURCES GAME_SOURCES MENU_SOURCES
        DATA_SOURCES CORE_SOURCES AI_SOURCES AI_HEADERS)
  foreach(_file IN LISTS ${_list})
    if(_file MATCHES "\\.cpp$" AND NOT _file STREQUAL "ai.cpp")
      if(NOT EXISTS "${ENGINE}/${_file}")
        message(FATAL_ERROR "${ENGINE}/${_file} (listed in sources.cmake) is missing")
      endif()
      list(APPEND _sources "${ENGINE}/${_file}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _sources)

find_package(Threads REQUIRED)
find_path(SDL2_INCLUDE_DIR SDL.h PATH_SUFFIXES SDL2 REQUIRED)
set(_deps)
foreach(_lib SDL2_image SDL2_ttf SDL2_gfx SDL2 boost_filesystem boost_system boost_thread EGL GL)
  find_library(_lib_${_lib} NAMES ${_lib} REQUIRED)
  list(APPEND _deps "${_lib_${_lib}}")
endforeach()

add_library(gfootball_engine STATIC ${_sources})
target_compile_options(gfootball_engine PRIVATE -w)
target_include_directories(gfootball_engine PUBLIC
  "$<BUILD_INTERFACE:${ENGINE}/src;${ENGINE}/src/cmake>"
  "$<INSTALL_INTERFACE:include/gfootball_engine;include/gfootball_engine/cmake>"
  "${SDL2_INCLUDE_DIR}")
target_link_libraries(gfootball_engine PUBLIC ${_deps} Threads::Threads)
set_target_properties(gfootball_engine PROPERTIES EXPORT_NAME engine)

include(GNUInstallDirs)
install(TARGETS gfootball_engine EXPORT football-targets ARCHIVE DESTINATION lib)
install(DIRECTORY "${ENGINE}/src/" DESTINATION include/gfootball_engine
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(EXPORT football-targets NAMESPACE football:: DESTINATION lib/cmake/football)
include(CMakePackageConfigHelpers)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/football-config-version.cmake"
  VERSION ${FOOTBALL_VERSION} COMPATIBILITY SameMajorVersion)
file(WRITE "${CMAKE_BINARY_DIR}/football-config.cmake" [=[
# Google Research Football's C++ engine, installed by seedrl's third_party/install-football.sh.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/football-targets.cmake")
get_filename_component(_football_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
# What GameEnv loads at run time: GameConfig::data_dir (or $GFOOTBALL_DATA_DIR)
# and $GFOOTBALL_FONT.
set(FOOTBALL_DATA_DIR "${_football_prefix}/share/football/data")
set(FOOTBALL_FONT "${_football_prefix}/share/football/fonts/AlegreyaSansSC-ExtraBold.ttf")
]=])
install(FILES "${CMAKE_BINARY_DIR}/football-config.cmake" "${CMAKE_BINARY_DIR}/football-config-version.cmake"
        DESTINATION lib/cmake/football)
EOF

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
echo "install-football: building gfootball $version ($commit) from $src into $prefix"
cmake -S "$work/project" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O3 \
  -DENGINE="$engine" -DFOOTBALL_VERSION="$version" \
  -DCMAKE_INSTALL_PREFIX="$prefix" "${launcher[@]}" >/dev/null
cmake --build "$work/build" -j"${FOOTBALL_JOBS:-$(nproc)}"

# A half-written install must not look finished: the stamp goes last.
rm -f "$stamp"
rm -rf "$prefix/include/gfootball_engine" "$prefix/share/football/data"
cmake --install "$work/build" >/dev/null
mkdir -p "$prefix/share/football/fonts" "$prefix/share/football/licenses"
cp -a "$work/data" "$prefix/share/football/data"
cp "$font" "$prefix/share/football/fonts/"
cp "$engine/LICENSE" "$prefix/share/football/licenses/gfootball_engine-LICENSE"
cp "$srcdir/LICENSE" "$prefix/share/football/licenses/gfootball-LICENSE"
[ -f "$srcdir/third_party/fonts/LICENSE" ] && cp "$srcdir/third_party/fonts/LICENSE" "$prefix/share/football/licenses/fonts-LICENSE"
echo "$stamp_text" > "$stamp"
echo "install-football: gfootball $version ($commit) installed in $prefix"
