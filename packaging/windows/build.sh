#!/usr/bin/env bash
# The Windows build that can be made and tried on Linux, in one command:
#   1. cross-compiles kwcore, kwb-run.exe, the window (kernel-workbench.exe, when the
#      Qt for MinGW of build-qt.sh is there) and the core and simulator tests with
#      MinGW-w64 (mingw-w64-x86_64.cmake; dependencies from deps.sh);
#   2. runs every test executable under Wine (a throw-away WINEPREFIX);
#   3. builds the NSIS installer with CPack;
#   4. installs it silently under Wine, runs the installed kwb-run.exe --version and
#      devices, uninstalls it and checks that nothing is left; with the window, all of
#      that and the window itself through wine-proof.sh.
# Exits non-zero when any step fails. Usage: packaging/windows/build.sh [BUILD_DIR]
# (default build-windows). KW_JOBS sets the build's parallelism (default 2);
# KW_MINGW_DEPS the folder of the MinGW dependencies (default BUILD_DIR/prefix; CI keeps
# it in /var/cache/kwb-windows/prefix, shared by every clone); KW_MINGW_QT the Qt for
# MinGW (default /var/cache/kwb-mingw-qt/prefix, build-qt.sh's); KW_WINDOWS_GUI=0
# leaves the window out.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
root=$(cd "$here/../.." && pwd)
out=$(mkdir -p "${1:-$root/build-windows}" && cd "${1:-$root/build-windows}" && pwd)
jobs=${KW_JOBS:-2}
deps=${KW_MINGW_DEPS:-$out/prefix}
# ccache hashes paths relative to the tree, so another clone (CI's) reuses the objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
start=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }
fail() { echo "build-windows: $*" >&2; exit 1; }

# --- tools, from Debian ------------------------------------------------------------
step "tools"
require_packages cmake ninja-build ccache g++-mingw-w64-x86-64-posix wine wine64 nsis dpkg-dev python3 xvfb \
  nlohmann-json3-dev libfmt-dev libcli11-dev libgtest-dev libmuparser-dev libpugixml-dev
[[ -f /usr/local/cuda/include/cuda.h && -f /usr/local/cuda/include/nvrtc.h ]] \
  || fail "the CUDA headers (cuda.h, nvrtc.h) are not in /usr/local/cuda/include"

# --- 1. cross build -----------------------------------------------------------------
step "MinGW dependencies"
mkdir -p "$deps"
KW_JOBS=$jobs "$here/deps.sh" "$deps" "$deps/../work"

# The window needs the Qt, QScintilla and QCustomPlot that build-qt.sh builds (hours,
# once); without them the build is the Qt-free part alone, and says so.
qt=${KW_MINGW_QT:-/var/cache/kwb-mingw-qt/prefix}
gui=OFF
if [[ ${KW_WINDOWS_GUI:-1} != 0 ]]; then
  if [[ -f $qt/lib/cmake/Qt6Widgets/Qt6WidgetsConfig.cmake && -f $qt/lib/cmake/Qt6Svg/Qt6SvgConfig.cmake &&
        -f $qt/lib/libqscintilla2_qt6.a && -f $qt/lib/cmake/QCustomPlotQt6/QCustomPlotQt6Config.cmake ]]; then
    gui=ON
  else
    echo "  the window is left out: no Qt for MinGW in $qt (packaging/windows/build-qt.sh builds it)"
  fi
fi
prefixes=$deps
gui_args=()
if [[ $gui == ON ]]; then
  prefixes="$deps;$qt"
  # Qt's tools (moc, rcc, uic) are the host's, the same 6.4.2 (build-qt.sh).
  gui_args=(-DQT_HOST_PATH=/usr -DQT_HOST_PATH_CMAKE_DIR="/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/cmake")
fi

step "cross build (window: $gui)"
cmake -S "$root" -B "$out/cross" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$here/mingw-w64-x86_64.cmake" -DKW_MINGW_PREFIX="$prefixes" \
  -DCMAKE_PREFIX_PATH="$prefixes" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DKW_BUILD_GUI=$gui "${gui_args[@]}" -DKW_BUILD_TESTS=ON -DKW_BUILD_BENCH=OFF -DKW_NSIS_TARGET=amd64-unicode \
  -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST >"$out/configure.log" \
  || { cat "$out/configure.log"; fail "configure failed"; }
programs=(kwb-run)
[[ $gui == ON ]] && programs+=(kernel-workbench)
tests=()
for src in "$root"/tests/core/test_*.cpp "$root"/tests/sim/test_*.cpp; do
  area=$(basename "$(dirname "$src")")
  tests+=("${area}_$(basename "$src" .cpp)")
done
cmake --build "$out/cross" -j"$jobs" --target "${programs[@]}" "${tests[@]}"

# --- a throw-away Wine ----------------------------------------------------------------
export WINEPREFIX
WINEPREFIX=$(mktemp -d /tmp/kwb-wine.XXXXXX)
export WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono or Gecko prompts
cleanup() { wineserver -k 2>/dev/null || true; rm -rf "$WINEPREFIX"; }
trap cleanup EXIT
step "Wine prefix $WINEPREFIX"
wine wineboot --init >/dev/null 2>&1
wineserver -w

# --- 2. tests under Wine ------------------------------------------------------------
step "tests under Wine"
reports=$out/wine-tests
rm -rf "$reports"; mkdir -p "$reports"
for t in "${tests[@]}"; do
  printf '  %s\n' "$t"
  # Failures are read from the output below; the exit status only tells a hang (124,
  # timeout's) from a crash for an output that ends early.
  rc=0
  timeout 900 wine "$out/cross/bin/$t.exe" >"$reports/$t.log" 2>&1 || rc=$?
  echo "[kwb] exit status $rc" >>"$reports/$t.log"
done
report_ok=0
python3 "$here/wine-test-report.py" "$reports"/*.log || report_ok=1
((report_ok == 0)) || fail "tests failed under Wine (outputs in $reports)"

# --- 3. installer -------------------------------------------------------------------
step "NSIS installer"
(cd "$out/cross" && cpack -G NSIS >"$out/cpack.log") || { cat "$out/cpack.log"; fail "cpack failed"; }
installer=$(ls -t "$out"/cross/kernel-workbench-*-win64.exe | head -1)
echo "  $(basename "$installer"): $(du -h "$installer" | cut -f1) ($(stat -c %s "$installer") bytes)"

# --- 4. install, run, uninstall -------------------------------------------------------
if [[ $gui == ON ]]; then
  step "the installer under Wine, the window included (wine-proof.sh)"
  "$here/wine-proof.sh" "$installer" "$out/wine-proof"
  step "done: $(basename "$installer") in $((SECONDS - start)) s"
  exit 0
fi
step "silent install under Wine"
# The default folder (NSIS takes /D=... only unquoted, so no folder with a space).
target='C:\Program Files\Kernel Workbench'
target_unix="$WINEPREFIX/drive_c/Program Files/Kernel Workbench"
# Before: the file system and the registry's uninstall list, to compare afterwards.
snapshot() {
  (cd "$WINEPREFIX/drive_c" && find . -path ./windows -prune -o -path './users/*/Temp' -prune \
     -o -path './users/*/AppData/Local/Temp' -prune -o -print | sort)
  for hive in HKLM HKCU; do
    { wine reg query "$hive\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall" 2>/dev/null || true; } \
      | tr -d '\r' | sort
  done
}
snapshot >"$out/wine-before.txt"
wine "$installer" /S
wineserver -w
[[ -f $target_unix/bin/kwb-run.exe ]] || fail "the installer did not put bin\\kwb-run.exe in $target"
snapshot >"$out/wine-installed.txt"
grep -q 'Uninstall\\Kernel Workbench$' "$out/wine-installed.txt" || fail "the installer registered no uninstaller"

step "installed kwb-run.exe --version, devices"
version=$(wine "$target_unix/bin/kwb-run.exe" --version | tr -d '\r')
echo "$version" | sed 's/^/  /'
grep -q '^kwb-run [0-9]' <<<"$version" || fail "--version printed no version"
grep -q '^NVRTC:' <<<"$version" && grep -q '^driver:' <<<"$version" || fail "--version names no NVRTC or driver"
devices=$(wine "$target_unix/bin/kwb-run.exe" devices | tr -d '\r')
echo "$devices" | sed 's/^/  /'
grep -q '^sim ' <<<"$devices" || fail "devices does not list the simulator"
sample=$target_unix/share/kernel-workbench/samples
[[ -d $sample ]] || fail "no samples installed in $sample"

step "silent uninstall under Wine"
wine "$target_unix/Uninstall.exe" /S
wineserver -w
sleep 1; wineserver -w # the uninstaller runs a copy of itself from Temp
snapshot >"$out/wine-after.txt"
if ! diff -u "$out/wine-before.txt" "$out/wine-after.txt" >"$out/wine-left.diff"; then
  cat "$out/wine-left.diff"; fail "the uninstaller left the above behind"
fi
[[ ! -e $target_unix ]] || fail "$target is still there after uninstalling"
echo "  nothing left: file system (outside C:\\windows and Temp) and uninstall registry as before"

step "done: $(basename "$installer") in $((SECONDS - start)) s"
