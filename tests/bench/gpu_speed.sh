#!/usr/bin/env bash
# On the GPU machine (CUDA 13, driver 580, CuPy, ncu; binaries in build/bin): the gpu
# tests of kernel timing and transfers, then the two benchmark rows (kernel time against
# Nsight Compute; 1 GiB uploads and downloads against CuPy's pinned cudaMemcpy in five
# fresh processes), and a summary. About 3 minutes.
#   tests/bench/gpu_speed.sh [BIN_DIR] [OUT_DIR]
# Exit 0 when every test passed and every benchmark row met its target.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$(cd "${1:-$root/build/bin}" && pwd)
out=${2:-$root/gpu-speed-results}
mkdir -p "$out"
cd "$root"
# As scripts/gpu-session.sh: a build made elsewhere (scripts/build-gpu.sh) records the tree
# it was made in (the tests hold its paths) and carries the libraries the machine may lack.
build=$(dirname "$bin")
src_root=$(cat "$build/source-root" 2>/dev/null || echo "$root")
if [ "$src_root" != "$root" ] && [ ! -e "$src_root" ]; then
    mkdir -p "$(dirname "$src_root")" && ln -s "$root" "$src_root"
fi
[ -d "$build/runtime-libs" ] && export LD_LIBRARY_PATH="$build/runtime-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export KWB_CACHE_DIR=${KWB_CACHE_DIR:-$(mktemp -d)}
summary="$out/summary.txt"
status=0
started=$(date +%s)

{
    echo "gpu_speed.sh $(date -u +%FT%TZ) on $(hostname)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader 2>&1
    git -C "$root" log -1 --format='commit %h %s' 2>/dev/null
} | tee "$summary"

step() { # name, then the command; its output goes to $out/NAME.log, one line to the summary
    local name=$1
    shift
    local t0=$(date +%s)
    timeout 170 "$@" >"$out/$name.log" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || status=1
    printf '%-22s exit %d in %ds\n' "$name" "$rc" "$(($(date +%s) - t0))" | tee -a "$summary"
}

# The tests (CPU ones too: they are the transfer path's and the statistics' own).
for t in core_test_timing_stats core_test_timing_detail_text core_test_staged_transfer core_test_parallel_copy \
         gpu_test_gpu_kernel_timing gpu_test_gpu_staged_transfer gpu_test_gpu_transfer; do
    step "$t" "$bin/$t" --gtest_brief=1
    grep -E "PASSED|FAILED|SKIPPED" "$out/$t.log" | sed 's/^/    /' | tee -a "$summary"
done

step kernel_time python3 tests/bench/bench_kernel_time.py --bin "$bin" --json "$out/kernel_time.json"
sed 's/^/    /' "$out/kernel_time.log" | tee -a "$summary"

step transfer python3 tests/bench/bench_transfer.py --bin "$bin" --json "$out/transfer.json"
sed 's/^/    /' "$out/transfer.log" | tee -a "$summary"

# Other staging rings, to choose the default by measurement (information).
if [ $(($(date +%s) - started)) -lt 150 ]; then
    timeout 80 python3 tests/bench/bench_transfer.py --bin "$bin" --rings --rounds 3 --json "$out/rings.json" \
        >"$out/rings.log" 2>&1
    echo "rings (information):" | tee -a "$summary"
    sed 's/^/    /' "$out/rings.log" | tee -a "$summary"
fi

echo "total $(($(date +%s) - started)) s; $([ $status -eq 0 ] && echo 'all passed and met' || echo 'SOMETHING FAILED OR MISSED: see the logs')" | tee -a "$summary"
exit $status
