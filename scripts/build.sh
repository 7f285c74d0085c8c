#!/usr/bin/env bash
# Installs what the build needs, configures (Ninja, with the Qt workbench) and
# builds the given targets, or everything when none are named.
#   scripts/build.sh [TARGET...]
# Environment: KW_BUILD_DIR (default: build), KW_JOBS (default: all cores),
# KW_BUILD_TYPE (default: RelWithDebInfo).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_BUILD_DIR:-$root/build}
jobs=${KW_JOBS:-$(nproc)}

"$root/scripts/install-deps.sh"

cmake -S "$root" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="${KW_BUILD_TYPE:-RelWithDebInfo}" \
  -DKW_BUILD_GUI=ON -DKW_BUILD_TESTS=ON -DKW_BUILD_BENCH=OFF

targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
