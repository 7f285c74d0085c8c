#!/usr/bin/env bash
# Runs bench_sim and bench_ui of two builds side by side in one run, alternating
# rounds so that both see the same machine load, and prints each figure per round.
#   tests/bench/before_after.sh BEFORE_BUILD AFTER_BUILD [rounds]
# Each build folder needs bin/bench_sim, bin/bench_ui and bin/kwb-run
# (-DKW_BUILD_BENCH=ON); bench_ui runs under xvfb-run when there is no display.
set -euo pipefail
before=$1 after=$2 rounds=${3:-3}
ui_runner=()
[ -z "${DISPLAY:-}" ] && ui_runner=(xvfb-run -a -s "-screen 0 1920x1080x24")
for ((r = 1; r <= rounds; r++)); do
  for side in before after; do
    dir=$before; [ "$side" = after ] && dir=$after
    echo "== round $r, $side ($dir)"
    "$dir/bin/bench_sim" all | sed "s/^/$side sim: /"
    "${ui_runner[@]}" "$dir/bin/bench_ui" 2>/dev/null | sed "s/^/$side ui: /"
  done
done
