#!/usr/bin/env bash
# Proves the Linux packages on systems with nothing else installed.
#
# Builds the two .debs (cpack -G DEB: kernel-workbench and kernel-workbench-nvrtc,
# NVIDIA's files) and the portable archive (target portable-archive) from the build
# tree, checks them (lintian, desktop-file-validate, appstreamcli, every licence text
# in its place), creates minimal Debian 12 and Debian 13 roots with debootstrap
# (minbase, cached between runs), and in each:
#   Debian 12: apt-get install ./kernel-workbench_*.deb ./kernel-workbench-nvrtc_*.deb
#              (one command), and afterwards without kernel-workbench-nvrtc
#   both:      the archive unpacked under /opt
# then runs kwb-run --version, kwb-run devices, kwb-run compile on every installed
# sample, kwb-run run of hello_from_gpu (60 printf lines) and add_vectors (its
# check passes) on the simulator, and the workbench with -platform offscreen
# loading a sample. Prints every step, the package sizes and the seconds from
# "installed" to the first kernel's result; exits non-zero on any failure.
#
#   packaging/test-clean-root.sh
# Environment:
#   KW_BUILD_DIR       build tree (default: build)
#   KWB_ROOTS_CACHE    where the debootstrapped roots are kept (default /var/cache/kwb-roots)
#   KWB_DEBIAN_MIRROR  mirror for debootstrap (default: the first Debian URI in /etc/apt/sources*)
#   KWB_SUITES         roots to test (default: "bookworm trixie")
#   KWB_SKIP_BUILD=1   use the artefacts already in the build tree
# Needs root (debootstrap, chroot, mount) and the Debian archive; nothing else.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=${KW_BUILD_DIR:-$src/build}
cache=${KWB_ROOTS_CACHE:-/var/cache/kwb-roots}
suites=(${KWB_SUITES:-bookworm trixie})
script_start=$SECONDS
failures=0

step() { printf '\n== %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
fail() { printf '   FAILED: %s\n' "$*"; failures=$((failures + 1)); }
die() { printf 'test-clean-root: %s\n' "$*" >&2; exit 1; }
human() { numfmt --to=iec-i --suffix=B "$1"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

((EUID == 0)) || die "needs root (debootstrap, chroot and mount)"

mirror=${KWB_DEBIAN_MIRROR:-}
if [[ -z $mirror ]]; then
  mirror=$(grep -rhoE '^(URIs:|deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?https?://[^[:space:]]+/debian/?([[:space:]]|$)' \
             /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
           | grep -oE 'https?://[^[:space:]]+' | head -n1 || true)
  mirror=${mirror:-http://deb.debian.org/debian}
fi

# ---- tools ------------------------------------------------------------------
step "tools"
tools=(debootstrap patchelf dpkg-dev file lintian desktop-file-utils appstream)
missing=()
for p in "${tools[@]}"; do
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "   installing ${missing[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  # A build tree configured before patchelf was installed cached it as not found.
  [[ -f $build/CMakeCache.txt ]] && cmake -U KW_PATCHELF "$build" >/dev/null
fi
ok "${tools[*]}"

# ---- artefacts --------------------------------------------------------------
if [[ ${KWB_SKIP_BUILD:-0} != 1 ]]; then
  step "build: programs, .deb and portable archive ($build)"
  t=$SECONDS
  log=$build/test-clean-root-build.log
  if ! { cmake --build "$build" --target kwb-run kernel-workbench portable-archive && (cd "$build" && cpack -G DEB); } >"$log" 2>&1; then
    tail -n 30 "$log"; die "build failed (log: $log)"
  fi
  grep -E '^-- bundled|^CPack: - package' "$log" | sed 's/^/   /'
  ok "built in $((SECONDS - t)) s (log: $log)"
fi
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
deb=$(ls -t "$build"/kernel-workbench_"$version"-*_amd64.deb 2>/dev/null | head -n1 || true)
nvrtc_deb=$(ls -t "$build"/kernel-workbench-nvrtc_"$version"-*_amd64.deb 2>/dev/null | head -n1 || true)
archive=$build/kernel-workbench-$version-linux-x86_64.tar.gz
[[ -f $deb ]] || die "no .deb in $build (run without KWB_SKIP_BUILD)"
[[ -f $nvrtc_deb ]] || die "no kernel-workbench-nvrtc .deb in $build (run without KWB_SKIP_BUILD)"
[[ -f $archive ]] || die "no $archive (run without KWB_SKIP_BUILD)"
step "artefacts"
printf '   %-55s %s\n' "$(basename "$deb")" "$(human "$(stat -c %s "$deb")")"
printf '   %-55s %s\n' "$(basename "$nvrtc_deb")" "$(human "$(stat -c %s "$nvrtc_deb")")"
printf '   %-55s %s\n' "$(basename "$archive")" "$(human "$(stat -c %s "$archive")")"
printf '   %-55s %s\n' "  unpacked" "$(human "$(tar -tvzf "$archive" | awk '{s += $3} END {print s}')")"

# ---- package checks ---------------------------------------------------------
step "package checks"
check_dir=$(mktemp -d)
trap 'rm -rf "$check_dir"' EXIT
dpkg-deb -x "$deb" "$check_dir/deb"
dpkg-deb -x "$nvrtc_deb" "$check_dir/nvrtc"
if [[ $(dpkg-deb -f "$deb" Recommends) == *kernel-workbench-nvrtc* ]]; then
  ok "kernel-workbench recommends kernel-workbench-nvrtc"
else
  fail "kernel-workbench does not recommend kernel-workbench-nvrtc"
fi
# NVIDIA's files in their own package only.
if [[ -z $(find "$check_dir/deb" -name 'libnvrtc*' -o -name 'cuda_fp16*' -o -name '*EULA*') ]] \
   && [[ -f $check_dir/nvrtc/usr/lib/kernel-workbench/nvidia/libnvrtc.so.13 ]] \
   && [[ -f $check_dir/nvrtc/usr/lib/kernel-workbench/nvidia/include/cuda_fp16.h ]]; then
  ok "NVIDIA's files only in kernel-workbench-nvrtc (usr/lib/kernel-workbench/nvidia)"
else
  fail "NVIDIA's files are not (only) in kernel-workbench-nvrtc"
fi

# Every licence text where the packages say it is. licence_texts ROOT PREFIX LABEL
licence_texts() {
  local root=$1 p=$2 label=$3 f missing=""
  grep -q 'Additional permission under GNU GPL version 3 section 7' "$root$p/share/doc/kernel-workbench/LICENSE" 2>/dev/null \
    || missing+=" LICENSE(with the section 7 permission)"
  grep -q '^License: GPL-3+ with NVIDIA CUDA exception' "$root$p/share/doc/kernel-workbench/copyright" 2>/dev/null \
    || missing+=" copyright"
  grep -q 'NVIDIA' "$root$p/share/doc/kernel-workbench-nvrtc/NVIDIA-CUDA-EULA.txt" 2>/dev/null \
    || missing+=" NVIDIA-CUDA-EULA.txt"
  grep -q 'Apache-2.0 WITH LLVM-exception' "$root$p/share/doc/kernel-workbench-nvrtc/copyright" 2>/dev/null \
    || missing+=" kernel-workbench-nvrtc/copyright"
  if [[ $p != /usr ]]; then
    # The archive: Apache-2.0 in full for libcu++, and each bundled library's copyright.
    [[ -s $root$p/share/doc/kernel-workbench-nvrtc/Apache-2.0.txt ]] || missing+=" Apache-2.0.txt"
    local pkg
    while read -r f pkg _; do
      [[ $f == lib/kernel-workbench/* ]] || continue
      [[ -s $root$p/share/doc/kernel-workbench/third-party/$pkg.copyright ]] || missing+=" third-party/$pkg.copyright"
    done <"$root$p/share/doc/kernel-workbench/BUNDLED-LIBRARIES.txt"
  fi
  if [[ -z $missing ]]; then ok "$label: licence texts installed (LICENSE, copyright, NVIDIA's EULA$([[ $p != /usr ]] && echo ", Apache-2.0, every bundled library's copyright"))"
  else fail "$label: licence texts missing:$missing"; fi
}
mkdir -p "$check_dir/both" && cp -a "$check_dir/deb/." "$check_dir/nvrtc/." "$check_dir/both/"
licence_texts "$check_dir/both" /usr "the two .debs"
if desktop-file-validate "$check_dir/deb/usr/share/applications/kernel-workbench.desktop"; then
  ok "desktop-file-validate"
else
  fail "desktop-file-validate"
fi
if appstreamcli validate --no-net "$check_dir"/deb/usr/share/metainfo/*.metainfo.xml >"$check_dir/as.log" 2>&1; then
  ok "appstreamcli validate --no-net"
else
  cat "$check_dir/as.log"; fail "appstreamcli validate"
fi
mkdir -p "$check_dir/mime/packages"
cp "$check_dir/deb/usr/share/mime/packages/kernel-workbench.xml" "$check_dir/mime/packages/"
if XDG_DATA_DIRS=$check_dir update-mime-database "$check_dir/mime" 2>"$check_dir/mime.log" && [[ ! -s $check_dir/mime.log ]] \
   && grep -q 'application/x-kernel-workbench' "$check_dir/mime/globs2"; then
  ok "MIME type (update-mime-database: *.kwb is application/x-kernel-workbench)"
else
  cat "$check_dir/mime.log"; fail "MIME type"
fi
lintian --no-tag-display-limit "$deb" "$nvrtc_deb" >"$check_dir/lintian.log" 2>&1 || true
errors=$(grep -c '^E:' "$check_dir/lintian.log" || true)
warnings=$(grep -c '^W:' "$check_dir/lintian.log" || true)
sed 's/^/   lintian: /' "$check_dir/lintian.log"
if ((errors == 0)); then ok "lintian: 0 errors, $warnings warnings"; else fail "lintian: $errors errors"; fi

# ---- roots ------------------------------------------------------------------
# A cached minbase root per suite; each run works on a copy, so the cache stays clean.
mkdir -p "$cache"
make_root() {
  local suite=$1 dir=$cache/$suite
  if [[ -f $dir/.kwb-complete ]]; then
    ok "cached $suite root $dir ($(du -sh "$dir" | cut -f1))"
    return 0
  fi
  rm -rf "$dir" "$dir.partial"
  local t=$SECONDS
  if ! debootstrap --variant=minbase "$suite" "$dir.partial" "$mirror" >"$cache/$suite.debootstrap.log" 2>&1; then
    tail -n 20 "$cache/$suite.debootstrap.log" | sed 's/^/   debootstrap: /'
    fail "debootstrap $suite from $mirror (log: $cache/$suite.debootstrap.log)"
    return 1
  fi
  rm -rf "$dir.partial"/var/cache/apt/archives/*.deb
  touch "$dir.partial/.kwb-complete"
  mv "$dir.partial" "$dir"
  ok "debootstrap --variant=minbase $suite from $mirror: $((SECONDS - t)) s, $(du -sh "$dir" | cut -f1)"
}

# An X server on the host for the window's X11 (xcb) path; the roots reach it
# through its socket folder. Optional: without Xvfb only the offscreen check runs.
xvfb_pid=""
display=""
if command -v Xvfb >/dev/null; then
  for n in $(seq 87 99); do
    [[ -e /tmp/.X11-unix/X$n ]] && continue
    Xvfb ":$n" -screen 0 1366x768x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$n ]] && break; sleep 0.1; done
    display=":$n"
    break
  done
fi

mounted=()
work=""
enter_root() {  # copy the cached root and mount what programs need
  local suite=$1
  work=$(mktemp -d "/tmp/kwb-root-$suite.XXXXXX")
  cp -a "$cache/$suite/." "$work/"
  mount -t proc proc "$work/proc" && mounted+=("$work/proc")
  mount --bind /dev "$work/dev" && mounted+=("$work/dev")
  mkdir -p "$work/var/cache/apt/archives" "$cache/apt-archives-$suite"
  mount --bind "$cache/apt-archives-$suite" "$work/var/cache/apt/archives" && mounted+=("$work/var/cache/apt/archives")
  cp /etc/resolv.conf "$work/etc/resolv.conf" 2>/dev/null || true
  if [[ -n $display ]]; then
    mkdir -p "$work/tmp/.X11-unix"
    mount --bind /tmp/.X11-unix "$work/tmp/.X11-unix" && mounted+=("$work/tmp/.X11-unix")
  fi
}
leave_root() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true; done
  mounted=()
  [[ -n $work ]] && rm -rf "$work"
  work=""
}
trap 'leave_root; rm -rf "$check_dir"; [[ -n $xvfb_pid ]] && kill "$xvfb_pid" 2>/dev/null' EXIT

in_root() { chroot "$work" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

# Runs the programs of an installed tree (prefix inside the root) and checks them.
# Prints the seconds from "installed" ($2, a now() value) to the first kernel result.
exercise() {
  local prefix=$1 installed_at=$2 label=$3
  local bin=$prefix/bin samples=$prefix/share/kernel-workbench/samples out
  local kwb=$bin/kwb-run

  if out=$(in_root "$kwb" --version 2>&1); then
    sed 's/^/   | /' <<<"$out"
    if grep -q '^NVRTC: *13\.[0-9]* (bundled, ' <<<"$out"; then ok "$label: kwb-run --version (bundled NVRTC)"; else fail "$label: NVRTC is not the bundled one"; fi
  else
    sed 's/^/   | /' <<<"$out"; fail "$label: kwb-run --version"
  fi

  # The first kernel: compile + run on the simulator, timed from "installed".
  if out=$(in_root "$kwb" run "$samples/hello_from_gpu.kwb" --device sim 2>&1); then
    local first
    first=$(since "$installed_at")
    local lines
    lines=$(grep -c 'Hello World from the GPU!' <<<"$out" || true)
    if [[ $lines -eq 60 ]]; then
      ok "$label: hello_from_gpu on sim: 60 printf lines; first kernel result ${first} s after installed"
    else
      sed 's/^/   | /' <<<"$out" | head -n 20; fail "$label: hello_from_gpu printed $lines lines, not 60"
    fi
    printf '   seconds from installed to first kernel result (%s): %s\n' "$label" "$first"
  else
    sed 's/^/   | /' <<<"$out" | tail -n 20; fail "$label: kwb-run run hello_from_gpu"
  fi

  if out=$(in_root "$kwb" devices 2>&1); then
    sed 's/^/   | /' <<<"$out"; ok "$label: kwb-run devices"
  else
    sed 's/^/   | /' <<<"$out"; fail "$label: kwb-run devices"
  fi

  local n=0 bad=0 f
  for f in $(in_root ls "$samples" | grep '\.kwb$'); do
    n=$((n + 1))
    if ! out=$(in_root "$kwb" compile "$samples/$f" 2>&1); then
      bad=$((bad + 1)); sed "s/^/   | $f: /" <<<"$out" | tail -n 5
    fi
  done
  if ((bad == 0 && n > 0)); then ok "$label: kwb-run compile: all $n samples"; else fail "$label: kwb-run compile: $bad of $n samples failed"; fi

  if out=$(in_root "$kwb" run "$samples/add_vectors.kwb" --device sim 2>&1); then
    grep '^check ' <<<"$out" | sed 's/^/   | /'
    if grep -q '^check ' <<<"$out"; then ok "$label: add_vectors on sim: check passes (exit 0)"; else fail "$label: add_vectors printed no check"; fi
  else
    sed 's/^/   | /' <<<"$out" | tail -n 10; fail "$label: add_vectors on sim (exit $?)"
  fi

  # The window, offscreen, with a sample open: --screenshot grabs it after 1.5 s and quits.
  local shot=/tmp/kwb-shot.png
  if out=$(in_root timeout 60 "$bin/kernel-workbench" -platform offscreen --screenshot "$shot" \
             "$samples/add_vectors.kwb" 2>&1) && [[ -s $work$shot ]]; then
    ok "$label: kernel-workbench -platform offscreen opened add_vectors ($(stat -c %s "$work$shot") byte screenshot)"
    [[ -n ${KWB_SHOTS:-} ]] && mkdir -p "$KWB_SHOTS" && cp "$work$shot" "$KWB_SHOTS/$label.png"
  else
    sed 's/^/   | /' <<<"$out" | tail -n 10; fail "$label: kernel-workbench offscreen"
  fi
  if [[ -n $display ]]; then
    rm -f "$work$shot"
    if out=$(in_root DISPLAY="$display" timeout 60 "$bin/kernel-workbench" -platform xcb --size 1366x768 \
               --screenshot "$shot" "$samples/add_vectors.kwb" 2>&1) && [[ -s $work$shot ]]; then
      ok "$label: kernel-workbench on X11 (Xvfb $display) opened add_vectors"
      [[ -n ${KWB_SHOTS:-} ]] && cp "$work$shot" "$KWB_SHOTS/$label-x11.png"
    else
      sed 's/^/   | /' <<<"$out" | tail -n 10; fail "$label: kernel-workbench on X11"
    fi
  fi
  if out=$(in_root "$bin/kernel-workbench" --version 2>&1); then
    sed 's/^/   | /' <<<"$out"; ok "$label: kernel-workbench --version"
  else
    sed 's/^/   | /' <<<"$out"; fail "$label: kernel-workbench --version"
  fi
}

# kernel-workbench without kernel-workbench-nvrtc: what needs no compiler works, and
# compiling says what to install.
without_nvrtc() {
  local label=$1 out
  if ! in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q kernel-workbench-nvrtc >/dev/null 2>&1; then
    fail "$label: apt-get remove kernel-workbench-nvrtc"; return
  fi
  out=$(in_root kwb-run --version 2>&1) || true
  sed 's/^/   | /' <<<"$out"
  if grep -q '^NVRTC: *not found.*kernel-workbench-nvrtc' <<<"$out"; then
    ok "$label without kernel-workbench-nvrtc: --version says NVRTC is not found and names the package"
  else
    fail "$label without kernel-workbench-nvrtc: --version does not name the package to install"
  fi
  if in_root kwb-run devices >/dev/null 2>&1; then ok "$label without kernel-workbench-nvrtc: kwb-run devices"
  else fail "$label without kernel-workbench-nvrtc: kwb-run devices"; fi
  out=$(in_root kwb-run run /usr/share/kernel-workbench/samples/add_vectors.kwb --device sim 2>&1) && local rc=0 || local rc=$?
  if ((rc != 0)) && grep -q 'kernel-workbench-nvrtc' <<<"$out"; then
    ok "$label without kernel-workbench-nvrtc: kwb-run run fails, naming kernel-workbench-nvrtc"
  else
    sed 's/^/   | /' <<<"$out" | tail -n 5; fail "$label without kernel-workbench-nvrtc: kwb-run run (exit $rc) does not say what to install"
  fi
}

# Libraries the loader cannot find in the root, for every ELF file of a tree.
unresolved() {
  local prefix=$1
  in_root sh -c "find '$prefix' -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c 'file=\$1; ldd \"\$file\" 2>/dev/null | grep \"not found\" | sed \"s|^|\$file: |\"' _ {} \;" || true
}

for suite in "${suites[@]}"; do
  step "Debian $suite: minimal root"
  make_root "$suite" || continue
  tag=$(cat "$cache/$suite/etc/debian_version")

  if [[ $suite == bookworm ]]; then
    step "Debian $suite ($tag): apt-get install ./$(basename "$deb") ./$(basename "$nvrtc_deb")"
    enter_root "$suite"
    cp "$deb" "$nvrtc_deb" "$work/tmp/"
    t=$(now)
    in_root apt-get update -q >/dev/null 2>&1 || fail "apt-get update in $suite"
    ok "apt-get update: $(since "$t") s"
    t=$(now)
    if in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "/tmp/$(basename "$deb")" "/tmp/$(basename "$nvrtc_deb")" >"$cache/$suite.apt.log" 2>&1; then
      installed_at=$(now)
      ok "apt-get install: $(since "$t") s ($(grep -c '^Setting up' "$cache/$suite.apt.log") packages set up, $(grep -c '^Get:' "$cache/$suite.apt.log") downloaded)"
      exercise /usr "$installed_at" "deb-$suite"
      left=$(unresolved /usr/lib/kernel-workbench)
      [[ -z $left ]] && ok "deb-$suite: every bundled library resolves" || { echo "$left"; fail "deb-$suite: unresolved libraries"; }
      licence_texts "$work" /usr "deb-$suite"
      without_nvrtc "deb-$suite"
    else
      tail -n 20 "$cache/$suite.apt.log" | sed 's/^/   apt: /'; fail "apt-get install of the .deb in $suite"
    fi
    leave_root
  fi

  step "Debian $suite ($tag): portable archive under /opt, nothing installed"
  enter_root "$suite"
  cp "$archive" "$work/tmp/"
  t=$(now)
  if in_root tar -xzf "/tmp/$(basename "$archive")" -C /opt; then
    installed_at=$(now)
    prefix=/opt/$(basename "$archive" .tar.gz)
    ok "unpacked in $(since "$t") s to $prefix"
    exercise "$prefix" "$installed_at" "archive-$suite"
    licence_texts "$work" "$prefix" "archive-$suite"
    left=$(unresolved "$prefix")
    [[ -z $left ]] && ok "archive-$suite: every library resolves inside the root" || { echo "$left"; fail "archive-$suite: unresolved libraries"; }
  else
    fail "unpacking the archive in $suite"
  fi
  leave_root
done

step "summary"
echo "   $(basename "$deb"): $(human "$(stat -c %s "$deb")"); $(basename "$nvrtc_deb"): $(human "$(stat -c %s "$nvrtc_deb")"); $(basename "$archive"): $(human "$(stat -c %s "$archive")")"
echo "   total: $((SECONDS - script_start)) s; failures: $failures"
((failures == 0))
