#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: runs every test (the `gpu` label included),
# the samples on both backends and the side-by-side benchmarks, from a build made
# elsewhere with scripts/build-gpu.sh. Logs go to $OUT (default ./gpu-results).
#   scripts/gpu-session.sh [build-dir]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build-gpu}
out=${OUT:-$root/gpu-results}
mkdir -p "$out"
cd "$root"

# The build records absolute paths of the tree it was made in.
src_root=$(cat "$build/source-root" 2>/dev/null || echo "$root")
if [ "$src_root" != "$root" ] && [ ! -e "$src_root" ]; then
    mkdir -p "$(dirname "$src_root")" && ln -s "$root" "$src_root"
fi
export LD_LIBRARY_PATH="$root/$build/runtime-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export KWB_CACHE_DIR=$(mktemp -d)

{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    "$build/bin/kwb-run" devices
} 2>&1 | tee "$out/devices.txt"

ctest --test-dir "$build" -L gpu --output-on-failure -V 2>&1 | tee "$out/gpu-tests.log" | grep -E "^\s*[0-9]+/[0-9]+ Test|tests passed|tests failed|parity:|kernel median|GB/s|Failed|FAILED" | tail -80
ctest --test-dir "$build" -LE gpu -j 8 2>&1 | tee "$out/cpu-tests.log" | tail -5

python3 tests/bench/bench_vs_cupy.py --bin "$build/bin" --json "$out/bench.json" 2>&1 | tee "$out/bench.log" | tail -40
