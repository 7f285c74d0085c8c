#!/usr/bin/env bash
# Builds Kernel Workbench and opens a sample in it (default: add_vectors).
# Installs the Debian packages it needs first. Without an NVIDIA GPU the
# workbench runs kernels on its CPU simulator.
#   scripts/run-workbench.sh [SAMPLE]     SAMPLE: a name from samples/ or a .kwb path
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_BUILD_DIR:-$root/build}

sample=${1:-add_vectors}
if [[ -f $sample ]]; then
  document=$(cd "$(dirname "$sample")" && pwd)/$(basename "$sample")
elif [[ -f $root/samples/${sample%.kwb}.kwb ]]; then
  document=$root/samples/${sample%.kwb}.kwb
else
  echo "run-workbench: no sample \"$sample\"; the samples are:" >&2
  (cd "$root/samples" && ls -1 ./*.kwb | sed 's|^\./||; s|\.kwb$||; s|^|  |') >&2
  exit 2
fi

"$root/scripts/build.sh" kernel-workbench kwb-run kw_samples

if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
  # No screen to show a window on: run the same document in the terminal instead.
  echo "run-workbench: no display (DISPLAY is not set), so the window cannot open."
  echo "run-workbench: running $(basename "$document") with kwb-run instead:"
  exec "$build_dir/bin/kwb-run" run "$document"
fi
exec "$build_dir/bin/kernel-workbench" "$document"
