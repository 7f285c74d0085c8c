#!/usr/bin/env bash
# Builds the Qt-free part (kwcore, kwb-run, tests, kwb-bench) into build-gpu/ so it
# can be carried to a GPU machine that lacks the development packages, where
# scripts/gpu-session.sh runs it.
#   scripts/build-gpu.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-gpu}

"$root/scripts/install-deps.sh"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja "${launcher[@]}" -DKW_BUILD_GUI=OFF -DKW_BUILD_BENCH=ON -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"

# The shared libraries the GPU machine does not have; tests record absolute
# paths, so the session script links this tree's path to wherever it lands.
mkdir -p "$build/runtime-libs"
cp -L "$(ldconfig -p | awk '/libmuparser\.so\.2 / {print $NF; exit}')" "$build/runtime-libs/"
cp -L "$(ldconfig -p | awk '/libpugixml\.so\.1 / {print $NF; exit}')" "$build/runtime-libs/"
cp -L "$(ldconfig -p | awk '/libseccomp\.so\.2 / {print $NF; exit}')" "$build/runtime-libs/"
echo "$root" > "$build/source-root"
