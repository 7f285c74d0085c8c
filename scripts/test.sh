#!/usr/bin/env bash
# Builds Kernel Workbench with every test and runs them. Installs the Debian
# packages it needs first. Tests labelled `gpu` skip themselves, with the reason,
# on a machine without an NVIDIA GPU; widget tests use Qt's offscreen platform.
#   scripts/test.sh [extra ctest arguments, e.g. -L core]
# Environment: as scripts/build.sh, and KW_TEST_JOBS (tests run at once, default: the
# number of cores; most tests wait on a child runner, so two cores keep two busy).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KW_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"

export QT_QPA_PLATFORM=offscreen
# No unit test measures time (speed claims live in tests/bench), so they may share the CPU.
ctest --test-dir "$build_dir" --output-on-failure -j "${KW_TEST_JOBS:-$(nproc)}" "$@"
