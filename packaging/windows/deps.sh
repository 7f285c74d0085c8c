#!/usr/bin/env bash
# Fills a prefix with what the MinGW-w64 cross build links against, all from Debian:
#   - nlohmann-json, fmt (header-only) and CLI11: headers of the Debian -dev packages;
#   - muparser and pugixml: built for MinGW from their Debian source packages (apt-get
#     source, with a deb-src list and apt state of our own, so the system's apt setup is
#     not touched);
#   - GoogleTest: built for MinGW from the sources libgtest-dev puts in /usr/src.
# Usage: deps.sh PREFIX WORKDIR. Does nothing for a part that is already in PREFIX.
set -euo pipefail

prefix=${1:?usage: deps.sh PREFIX WORKDIR}
work=${2:?usage: deps.sh PREFIX WORKDIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
toolchain=$here/mingw-w64-x86_64.cmake
mkdir -p "$prefix/include" "$work"
prefix=$(cd "$prefix" && pwd)
work=$(cd "$work" && pwd)
source "$here/common.sh"

# --- header-only libraries -------------------------------------------------------
# Only these folders: /usr/include as a whole would hide MinGW's C library headers.
for dir in nlohmann fmt CLI; do
  if [[ ! -d $prefix/include/$dir ]]; then
    [[ -d /usr/include/$dir ]] || { echo "deps: /usr/include/$dir is missing (install-deps.sh installs it)" >&2; exit 1; }
    cp -r "/usr/include/$dir" "$prefix/include/"
  fi
done
# Their CMake package files locate the headers relative to themselves.
mkdir -p "$prefix/share/cmake"
for pkg in nlohmann_json CLI11; do
  [[ -d $prefix/share/cmake/$pkg ]] || cp -r "/usr/share/cmake/$pkg" "$prefix/share/cmake/"
done
# Debian's fmt package file also names the Linux libfmt.so; the cross build only
# needs the header-only target.
mkdir -p "$prefix/lib/cmake/fmt"
cat >"$prefix/lib/cmake/fmt/fmt-config.cmake" <<'CFG'
get_filename_component(_fmt_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET fmt::fmt-header-only)
  add_library(fmt::fmt-header-only INTERFACE IMPORTED)
  set_target_properties(fmt::fmt-header-only PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_fmt_prefix}/include"
    INTERFACE_COMPILE_DEFINITIONS "FMT_HEADER_ONLY=1")
endif()
set(fmt_VERSION "$(dpkg-query -W -f='${Version}' libfmt-dev | sed 's/[+~-].*//')")
CFG

# --- muparser and pugixml from their Debian source packages ----------------------
apt_dir=$work/apt
# debian_source PACKAGE DEV_PACKAGE: unpacks the source of the version installed here
# into $apt_dir/src/PACKAGE-src.
debian_source() {
  fetch_debian_source "$apt_dir" "$apt_dir/src/$1-src" "$1" "$(dpkg-query -W -f='${source:Version}' "$2" 2>/dev/null || true)"
}

if [[ ! -f $prefix/lib/libmuparser.a ]]; then
  debian_source muparser libmuparser-dev
  cmake -S "$apt_dir/src/muparser-src" -B "$work/muparser-build" -G Ninja "${ccache_launcher[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DKW_MINGW_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF -DENABLE_OPENMP=OFF -DENABLE_SAMPLES=OFF \
    -DBUILD_TESTING=OFF
  cmake --build "$work/muparser-build" -j"${KW_JOBS:-2}"
  cmake --install "$work/muparser-build"
fi

if [[ ! -f $prefix/lib/libpugixml.a ]]; then
  debian_source pugixml libpugixml-dev
  cmake -S "$apt_dir/src/pugixml-src" -B "$work/pugixml-build" -G Ninja "${ccache_launcher[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DKW_MINGW_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF -DPUGIXML_BUILD_TESTS=OFF
  cmake --build "$work/pugixml-build" -j"${KW_JOBS:-2}"
  cmake --install "$work/pugixml-build"
fi

# --- GoogleTest from libgtest-dev's sources --------------------------------------
if [[ ! -f $prefix/lib/libgtest.a ]]; then
  [[ -f /usr/src/googletest/CMakeLists.txt ]] || { echo "deps: /usr/src/googletest is missing (libgtest-dev)" >&2; exit 1; }
  cmake -S /usr/src/googletest -B "$work/gtest-build" -G Ninja "${ccache_launcher[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DKW_MINGW_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF -DBUILD_GMOCK=ON -DINSTALL_GTEST=ON
  cmake --build "$work/gtest-build" -j"${KW_JOBS:-2}"
  cmake --install "$work/gtest-build"
fi
echo "deps: MinGW dependencies in $prefix"
