#!/usr/bin/env bash
# Pictures of the window at the screen sizes it is laid out for, each from a real run on
# the simulator under Xvfb with settings of its own (a first start):
#   the first start (the starter document), a sample run, the profile of matmul (the
#   README's picture), a check being written, presentation mode after a run, and the
#   debugger stopped at a breakpoint, normal and in presentation mode; walk_demo's: heat
#   diffusion's steps after a run, a document from elsewhere before it is trusted, and a
#   race found by Run > Check > racecheck.
#   scripts/screenshots.sh OUTDIR [WxH...]      (default sizes: 1366x768 1280x720 1920x1080)
# Needs kernel-workbench, kwb-run, debugger_demo, check_editing_demo and walk_demo built in
# KW_BUILD_DIR (default: build).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_BUILD_DIR:-$root/build}
out=${1:?usage: scripts/screenshots.sh OUTDIR [WxH...]}
shift
sizes=("$@")
[[ ${#sizes[@]} -eq 0 ]] && sizes=(1366x768 1280x720 1920x1080)
mkdir -p "$out"

# A home of its own: no saved layout, no recent files, no recovery copy.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_CACHE_HOME=$home/.cache
export QT_QPA_PLATFORM=xcb

shoot() { # SIZE PROGRAM ARGS...
  local size=$1
  shift
  xvfb-run -a -s "-screen 0 ${size}x24" "$@" >/dev/null
}

bin=$build_dir/bin
for size in "${sizes[@]}"; do
  shoot "$size" "$bin/kernel-workbench" --screenshot "$out/first-start-$size.png"
  shoot "$size" "$bin/kernel-workbench" "$root/samples/mandelbrot.kwb" --device sim --run \
    --screenshot "$out/run-$size.png"
  shoot "$size" "$bin/kernel-workbench" "$root/samples/matmul.kwb" --device sim --run --profile \
    --screenshot "$out/profile-$size.png"
  shoot "$size" "$bin/check_editing_demo" "$out/check-editing-$size.png"
  shoot "$size" "$bin/kernel-workbench" "$root/samples/mandelbrot.kwb" --device sim --run --presentation \
    --screenshot "$out/presentation-$size.png"
  shoot "$size" "$bin/debugger_demo" "$out/debug-$size.png"
  shoot "$size" "$bin/debugger_demo" "$out/debug-presentation-$size.png" --presentation
  shoot "$size" "$bin/walk_demo" "$root/samples/heat_diffusion.kwb" "$out/steps-$size.png" run 1.1
  race=$root/tests/data/docs/checks/sim/racecheck_warp_neighbours.kwb # from elsewhere: not a sample
  shoot "$size" "$bin/walk_demo" "$race" "$out/trust-$size.png" open
  shoot "$size" "$bin/walk_demo" "$race" "$out/racecheck-$size.png" racecheck
done
ls -1 "$out"
