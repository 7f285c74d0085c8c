#!/usr/bin/env bash
# The robustness pass of CI: an AddressSanitizer + UndefinedBehaviorSanitizer build
# (clang) of kwcore, kwb-run and the CPU tests, those tests run under it, then every
# libFuzzer target under tests/fuzz for a bounded time from its seed corpus.
#   scripts/sanitize.sh
# Environment: KW_SANITIZE_BUILD_DIR (default: build-sanitize), KW_JOBS (default: all
# cores), KW_FUZZ_SECONDS (per target, default 60), KW_SANITIZE_TESTS (a ctest -L
# label pattern, default core|sim|debug|robustness).
# A fuzzer's crash input is kept under $build_dir/fuzz-findings/<target>/; add it to
# tests/fuzz/corpus/<target>/ and as a regression case once fixed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_SANITIZE_BUILD_DIR:-$root/build-sanitize}
jobs=${KW_JOBS:-$(nproc)}
fuzz_seconds=${KW_FUZZ_SECONDS:-60}
labels=${KW_SANITIZE_TESTS:-core|sim|debug|robustness}

"$root/scripts/install-deps.sh"

flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link"
launcher=()
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1} # hits from another clone
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build_dir" -G Ninja "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DKW_BUILD_GUI=OFF -DKW_BUILD_TESTS=ON -DKW_BUILD_BENCH=OFF -DKW_BUILD_FUZZ=ON

# Only what runs on the CPU: the library, the runner, the core/sim/debug/robustness tests and the fuzzers.
targets=(kwb-run fuzzers)
while IFS= read -r t; do targets+=("$t"); done < <(
  cd "$root/tests" && for f in core/test_*.cpp sim/test_*.cpp debug/test_*.cpp robustness/test_*.cpp; do
    echo "$(dirname "$f")_$(basename "$f" .cpp)"
  done)
cmake --build "$build_dir" -j "$jobs" $(printf -- '--target %s ' "${targets[@]}")

# Leak checking stays off: NVRTC links its own libstdc++, whose 72704-byte exception
# pool LeakSanitizer reports at exit from an already unloaded module (no frames to
# suppress by name). Every other ASan and UBSan check is fatal.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The spin-wait test needs the simulator's Release speed to finish inside its kernel's
# 10 s time limit; under ASan it takes longer, which proves nothing about memory.
ctest --test-dir "$build_dir" --output-on-failure -L "$labels" -E 'SpinWaitLoopBeforeCriticalSectionMakesProgress'

status=0
for fuzzer in "$build_dir"/bin/fuzz_*; do
  name=$(basename "$fuzzer")
  corpus=$(mktemp -d)
  findings="$build_dir/fuzz-findings/$name"
  mkdir -p "$findings"
  # Work on a copy: the seed corpus in the repository only changes by hand.
  cp -r "$root/tests/fuzz/corpus/$name/." "$corpus/" 2>/dev/null || true
  echo "fuzz: $name for ${fuzz_seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$fuzzer" -max_total_time="$fuzz_seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$findings/" -print_final_stats=1 "$corpus" 2>"$build_dir/$name.log"; then
    echo "fuzz: $name found a problem; input under $findings, log $build_dir/$name.log" >&2
    tail -40 "$build_dir/$name.log" >&2
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build_dir/$name.log" || true
  rm -rf "$corpus"
done
exit $status
