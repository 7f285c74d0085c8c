#!/usr/bin/env bash
# Builds, for MinGW-w64, the Qt the window needs, from Debian 12's source packages
# (apt-get source, as deps.sh does): qtbase (Windows platform plugin, widgets, print
# support, test library; no network, SQL, D-Bus or OpenGL), qtsvg, QScintilla and
# QCustomPlot. Qt's tools (moc, rcc, uic...) are the host's, Debian's Qt 6.4.2, named
# through QT_HOST_PATH; the sources are the same version.
#
# Usage: packaging/windows/build-qt.sh [CACHE_DIR]   (default /var/cache/kwb-mingw-qt)
# The result is CACHE_DIR/prefix; each part that is already there is skipped, so a run
# that stopped goes on where it was. KW_JOBS sets the parallelism (default 2). It takes
# hours on a busy 2-core machine; run it in the background, e.g.
#   nice -n 19 packaging/windows/build-qt.sh >/dev/null 2>&1 &
# and follow CACHE_DIR/build.log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
cache=${1:-/var/cache/kwb-mingw-qt}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
prefix=$cache/prefix
work=$cache/work
jobs=${KW_JOBS:-2}
log=$cache/build.log
mkdir -p "$prefix" "$work"
exec > >(tee -a "$log") 2>&1
start=$SECONDS
step() { printf '\n== %s: %s (%ds)\n' "$(date -u +%H:%M:%S)" "$*" $((SECONDS - start)); }
fail() { echo "build-qt: $*" >&2; exit 1; }

step "build-qt.sh into $prefix, $jobs jobs"

# --- tools --------------------------------------------------------------------------
step "tools"
require_packages cmake ninja-build perl g++-mingw-w64-x86-64-posix dpkg-dev qt6-base-dev qt6-base-dev-tools qt6-svg-dev
host_cmake=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/cmake
[[ -d $host_cmake/Qt6HostInfo ]] || fail "the host's Qt 6 CMake files are not in $host_cmake"
host_version=$(dpkg-query -W -f='${source:Version}' qt6-base-dev)

# --- sources, from Debian ---------------------------------------------------------------
# source PACKAGE [VERSION]: unpacks Debian's source into $work/src/PACKAGE (patches applied).
source_of() {
  [[ -d $work/src/$1 ]] && return 0
  step "source of $1${2:+ $2}"
  fetch_debian_source "$work/apt" "$work/src/$1" "$@"
}

# A toolchain file for the Qt build: the project's, with the prefix as its root.
toolchain=$here/mingw-w64-x86_64.cmake
common=(-G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DKW_MINGW_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release
        -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix")
common+=("${ccache_launcher[@]}")
qt_host=(-DQT_HOST_PATH=/usr -DQT_HOST_PATH_CMAKE_DIR="$host_cmake")

# --- qtbase ---------------------------------------------------------------------------
if [[ ! -f $prefix/lib/cmake/Qt6Widgets/Qt6WidgetsConfig.cmake ]]; then
  source_of qt6-base "$host_version"
  step "configure qtbase"
  # Only what the window uses: Core, Gui (Windows platform plugin), Widgets, PrintSupport
  # (QCustomPlot, QScintilla), Test; the third-party libraries Qt carries, built in.
  # No tablet events: the Windows plugin reads tablets through wintab.h, which Debian's
  # source leaves out (its licence forbids changes), and the workbench uses none.
  # Static, with the MinGW runtime linked in as the programs link it: one
  # kernel-workbench.exe with its plugins inside, nothing to deploy beside it.
  cmake -S "$work/src/qt6-base" -B "$work/qtbase-build" "${common[@]}" "${qt_host[@]}" \
    -DQT_QMAKE_TARGET_MKSPEC=win32-g++ -DBUILD_SHARED_LIBS=OFF \
    -DQT_BUILD_EXAMPLES=OFF -DQT_BUILD_TESTS=OFF -DQT_BUILD_BENCHMARKS=OFF \
    -DFEATURE_static_runtime=ON \
    -DFEATURE_network=OFF -DFEATURE_sql=OFF -DFEATURE_dbus=OFF -DFEATURE_concurrent=OFF -DFEATURE_xml=OFF \
    -DINPUT_opengl=no -DFEATURE_opengl=OFF -DFEATURE_vulkan=OFF -DFEATURE_icu=OFF -DFEATURE_openssl=OFF \
    -DFEATURE_direct2d=OFF \
    -DFEATURE_system_zlib=OFF -DFEATURE_system_pcre2=OFF -DFEATURE_system_harfbuzz=OFF \
    -DFEATURE_system_freetype=OFF -DFEATURE_system_png=OFF -DFEATURE_system_jpeg=OFF \
    -DFEATURE_system_doubleconversion=OFF -DFEATURE_system_md4c=OFF \
    -DFEATURE_widgets=ON -DFEATURE_printsupport=ON -DFEATURE_testlib=ON \
    -DFEATURE_tabletevent=OFF
  step "build qtbase"
  cmake --build "$work/qtbase-build" -j"$jobs"
  step "install qtbase"
  cmake --install "$work/qtbase-build"
fi

# --- qtbase 6.4.2 without Direct2D: the DirectWrite pieces it leaves out ------------------
# With Direct2D off and DirectWrite 3 on, Qt 6.4.2's Windows platform plugin and print
# support still call the DirectWrite font database and font engine, which qtbase only
# compiles with Direct2D, so a static program does not link. The three files are
# compiled here as qtbase compiles its other Windows font files (the database base with
# its DirectWrite parts switched on), added to libQt6Gui.a, and dwrite.dll added to
# Qt6::Gui's link interface. Nothing of it is kept outside CACHE_DIR.
gui_lib=$prefix/lib/libQt6Gui.a
if ! x86_64-w64-mingw32-nm -C "$gui_lib" 2>/dev/null | grep -q ' T QWindowsDirectWriteFontDatabase::QWindowsDirectWriteFontDatabase()'; then
  step "qtbase: the DirectWrite font classes for the Windows plugin"
  fix=$work/dwrite-fix
  mkdir -p "$fix"
  windows_text=$work/src/qt6-base/src/gui/text/windows
  sed 's/QT_CONFIG(direct2d)/1/g' "$windows_text/qwindowsfontdatabasebase.cpp" >"$fix/qwindowsfontdatabasebase.cpp"
  # The compile line of a Windows font file qtbase did build, for another file.
  model=$(cd "$work/qtbase-build" && ninja -t commands src/gui/CMakeFiles/Gui.dir/text/windows/qwindowsfontengine.cpp.obj | tail -1)
  [[ $model == *qwindowsfontengine.cpp ]] || fail "qtbase's compile line for qwindowsfontengine.cpp not found"
  model=$(sed -e 's# -MD##; s# -MT [^ ]*##; s# -MF [^ ]*##; s# -o [^ ]*##; s# -c [^ ]*$##' <<<"$model")
  for src in "$windows_text/qwindowsfontenginedirectwrite.cpp" "$windows_text/qwindowsdirectwritefontdatabase.cpp" \
             "$fix/qwindowsfontdatabasebase.cpp"; do
    (cd "$work/qtbase-build" && eval "$model -I$windows_text -o $fix/$(basename "$src").obj -c $src")
  done
  x86_64-w64-mingw32-ar r "$gui_lib" "$fix"/qwindowsfontenginedirectwrite.cpp.obj \
    "$fix"/qwindowsdirectwritefontdatabase.cpp.obj "$fix"/qwindowsfontdatabasebase.cpp.obj
fi
gui_targets=$prefix/lib/cmake/Qt6Gui/Qt6GuiTargets.cmake
if ! grep -q 'LINK_ONLY:dwrite>' "$gui_targets"; then
  sed -i '0,/\\\$<LINK_ONLY:uuid>/s//\\$<LINK_ONLY:uuid>;\\$<LINK_ONLY:dwrite>/' "$gui_targets"
  grep -q 'LINK_ONLY:dwrite>' "$gui_targets" || fail "dwrite could not be added to Qt6::Gui's link interface"
fi

# --- qtsvg ----------------------------------------------------------------------------
# Debian's source first. Where the archive refuses it (a mirror that keeps the .dsc but
# no longer the tarballs answers 404), the release tag v<host version> from a git clone
# of Qt's qtsvg named by KW_QTSVG_GIT (a bare clone or a work tree) gives the same code
# without Debian's patches.
qtsvg_source() {
  [[ -d $work/src/qt6-svg ]] && return 0
  step "source of qt6-svg"
  fetch_debian_source "$work/apt" "$work/src/qt6-svg" qt6-svg && return 0
  local tag=v${host_version%%[+~-]*}
  [[ -n ${KW_QTSVG_GIT:-} ]] \
    || fail "Debian's qt6-svg source could not be fetched; set KW_QTSVG_GIT to a clone of Qt's qtsvg (tag $tag)"
  echo "build-qt: Debian's qt6-svg source could not be fetched; using tag $tag of $KW_QTSVG_GIT instead"
  rm -rf "$work/src/qt6-svg.tmp" && mkdir -p "$work/src/qt6-svg.tmp"
  git -C "$KW_QTSVG_GIT" archive "$tag" | tar -x -C "$work/src/qt6-svg.tmp" \
    || fail "tag $tag is not in $KW_QTSVG_GIT"
  mv "$work/src/qt6-svg.tmp" "$work/src/qt6-svg"
}
if [[ ! -f $prefix/lib/cmake/Qt6Svg/Qt6SvgConfig.cmake ]]; then
  qtsvg_source
  step "configure qtsvg"
  cmake -S "$work/src/qt6-svg" -B "$work/qtsvg-build" "${common[@]}" "${qt_host[@]}" \
    -DQT_BUILD_EXAMPLES=OFF -DQT_BUILD_TESTS=OFF
  step "build qtsvg"
  cmake --build "$work/qtsvg-build" -j"$jobs"
  cmake --install "$work/qtsvg-build"
fi

# --- QScintilla (static, packaging/windows/qscintilla) ----------------------------------
if [[ ! -f $prefix/lib/libqscintilla2_qt6.a ]]; then
  source_of qscintilla2
  step "QScintilla"
  cmake -S "$here/qscintilla" -B "$work/qscintilla-build" "${common[@]}" "${qt_host[@]}" \
    -DQSCINTILLA_SOURCE_DIR="$work/src/qscintilla2"
  cmake --build "$work/qscintilla-build" -j"$jobs"
  cmake --install "$work/qscintilla-build"
fi

# --- QCustomPlot (static, packaging/windows/qcustomplot) ---------------------------------
if [[ ! -f $prefix/lib/cmake/QCustomPlotQt6/QCustomPlotQt6Config.cmake ]]; then
  source_of qcustomplot
  qcp=$(dirname "$(find "$work/src/qcustomplot" -name qcustomplot.cpp | head -1)")
  [[ -f $qcp/qcustomplot.cpp ]] || fail "qcustomplot.cpp not found in Debian's qcustomplot source"
  step "QCustomPlot"
  cmake -S "$here/qcustomplot" -B "$work/qcustomplot-build" "${common[@]}" "${qt_host[@]}" \
    -DQCUSTOMPLOT_SOURCE_DIR="$qcp"
  cmake --build "$work/qcustomplot-build" -j"$jobs"
  cmake --install "$work/qcustomplot-build"
fi

step "done: Qt for MinGW in $prefix"
touch "$cache/done"
