#!/usr/bin/env bash
# Downloads (does not install) the Debian 12 header packages that the GPU
# machine lacks into .device/debs, for run-on-gpu.sh to unpack there.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .device/debs
cd .device/debs
apt-get download catch2 nlohmann-json3-dev libgloo-dev
