#!/usr/bin/env bash
# Line coverage of core/ by the CPU tests (gcov through gcovr, Debian's packages): builds
# kwcore, kwb-run and the Qt-free tests with --coverage into build-coverage/, runs them,
# and writes
#   build-coverage/coverage/summary.txt    per-file line coverage of core/
#   build-coverage/coverage/untested.txt   core/ source files no test executes a line of
#   build-coverage/coverage/index.html     the browsable report
#   scripts/coverage.sh [extra ctest arguments, e.g. -R Sequence]
# Environment: KW_COVERAGE_DIR (default: build-coverage), KW_JOBS (default: all cores).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${KW_COVERAGE_DIR:-$root/build-coverage}
jobs=${KW_JOBS:-$(nproc)}

"$root/scripts/install-deps.sh"
if ! command -v gcovr >/dev/null; then
  sudo=()
  ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends gcovr
fi

# No ccache: coverage objects carry their own notes files next to them. Atomic counter
# updates: tests run in parallel threads, and racing updates give gcov negative counts.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS="--coverage -fprofile-update=atomic -O0" -DCMAKE_EXE_LINKER_FLAGS="--coverage" \
  -DKW_BUILD_GUI=OFF -DKW_BUILD_TESTS=ON -DKW_BUILD_BENCH=OFF
cmake --build "$build" -j "$jobs"
find "$build" -name '*.gcda' -delete

# Tests that need a GPU or a real remote server say so and skip or fail as usual; the
# report covers whatever ran.
ctest --test-dir "$build" -j "$jobs" -LE gpu "$@" || echo "coverage: some tests failed; the report covers what ran"

out=$build/coverage
mkdir -p "$out"
# Counts from a build made before the atomic updates may still be negative: skip those lines.
gcovr --root "$root" --filter "$root/core/" --object-directory "$build" --gcov-ignore-parse-errors \
  --txt "$out/summary.txt" --json-summary "$out/summary.json" --html-details "$out/index.html" --print-summary

# A file no test executes a line of: absent from gcov's data, or present with none covered.
python3 - "$root" "$out" <<'PY'
import json, pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
covered = {f["filename"]: f["line_covered"] for f in json.loads((out / "summary.json").read_text())["files"]}
sources = sorted(str(p.relative_to(root)) for p in (root / "core").rglob("*.cpp"))
untested = [s for s in sources if covered.get(s, 0) == 0]
(out / "untested.txt").write_text("".join(s + "\n" for s in untested))
print(f"coverage: {len(untested)} of {len(sources)} core source files have no line executed by a test "
      f"(list: {out / 'untested.txt'})")
PY
