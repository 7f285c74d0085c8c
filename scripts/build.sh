#!/usr/bin/env bash
# Installs what the build needs, configures (Ninja, with the Qt workbench) and
# builds the given targets, or everything when none are named.
#   scripts/build.sh [TARGET...]
# Environment: KW_BUILD_DIR (default: build), KW_JOBS (default: all cores),
# KW_BUILD_TYPE (default: Release, the quickest to build and to run the simulator).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_BUILD_DIR:-$root/build}
jobs=${KW_JOBS:-$(nproc)}

"$root/scripts/install-deps.sh"

# ccache (installed by install-deps.sh) makes rebuilds of unchanged files free, also in
# another clone of the tree (CI's fresh clone): paths are hashed relative to the tree.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

cmake -S "$root" -B "$build_dir" -G Ninja "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE="${KW_BUILD_TYPE:-Release}" \
  -DKW_BUILD_GUI=ON -DKW_BUILD_TESTS=ON -DKW_BUILD_BENCH=ON

targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
