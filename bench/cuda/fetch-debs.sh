#!/usr/bin/env bash
# Downloads (does not install) the Debian 12 packages that the GPU machine
# lacks (headers, libgif's runtime, the report's dygraphs) into .device/debs,
# for run-on-gpu.sh to unpack there, and copies ALE's source tarball and ROMs (../shared/ale, when present) into .device/ale so
# that the CUDA build has the atari:* environments too.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .device/debs
(cd .device/debs && apt-get download catch2 nlohmann-json3-dev libgloo-dev \
  libtomlplusplus-dev libtomlplusplus3 zlib1g-dev libgif-dev libgif7 libjs-dygraphs)
if [[ -d ../shared/ale ]]; then
  mkdir -p .device/ale
  cp -r ../shared/ale/ale-*-src.tar.gz ../shared/ale/roms .device/ale/
fi
du -sh .device
