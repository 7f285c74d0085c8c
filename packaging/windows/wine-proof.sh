#!/usr/bin/env bash
# The Windows installer proven under Wine, in a throw-away Wine prefix and display:
#   1. silent install (/S); the files, the Start-menu entry, the .kwb association, and
#      that the programs import nothing but Windows' own DLLs (Qt is linked in);
#   2. kwb-run.exe --version and devices;
#   3. the window (kernel-workbench.exe) under Xvfb on a sample, its picture saved, and
#      its first screen's notice that no NVRTC was found, with what to install;
#   4. NVRTC's search order with a stand-in NVRTC (nvrtc-stand-in.c) put in PATH, in a
#      toolkit the registry lists, in CUDA_PATH and beside the program, one after the
#      other: each time --version must name the folder that comes first, and the window
#      must say nothing once one is found;
#   5. silent uninstall, and nothing left: C:\ (outside C:\windows and the temporary
#      folders) and the registry keys the installer and the programs write, as before.
# Usage: wine-proof.sh INSTALLER [OUT_DIR]   (OUT_DIR default: wine-proof/ here; it
# gets the logs and window.png). Exits non-zero at the first failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
installer=$(realpath "${1:?usage: wine-proof.sh INSTALLER [OUT_DIR]}")
out=$(mkdir -p "${2:-$PWD/wine-proof}" && cd "${2:-$PWD/wine-proof}" && pwd)
start=$SECONDS
step() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }
ok() { echo "   ok: $*"; }
fail() { echo "   FAILED: $*" >&2; exit 1; }

# --- a throw-away Wine and display ----------------------------------------------------
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono or Gecko prompts
WINEPREFIX=$(mktemp -d /tmp/kwb-wine-proof.XXXXXX)
xvfb_pid=
cleanup() {
  wineserver -k 2>/dev/null || true
  [[ -n $xvfb_pid ]] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$WINEPREFIX"
}
trap cleanup EXIT
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$out/display" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 50); do [[ -s $out/display ]] && break; sleep 0.1; done
[[ -s $out/display ]] || fail "Xvfb did not start"
export DISPLAY=:$(head -1 "$out/display")
step "Wine prefix $WINEPREFIX, display $DISPLAY"
wine wineboot --init >/dev/null 2>&1
wineserver -w

# What the installer and the programs may leave: the file system and the registry keys
# they write (the uninstall list, the association, the settings, the vendor key).
keys=('HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall'
      'HKLM\Software\Classes\.kwb' 'HKLM\Software\Classes\KernelWorkbench.Document' 'HKCU\Software\Classes\.kwb'
      'HKCU\Software\Classes\KernelWorkbench.Document' 'HKCU\Software\KernelWorkbench' 'HKLM\Software\Kernel Workbench'
      'HKLM\Software\NVIDIA Corporation')
snapshot() {
  (cd "$WINEPREFIX/drive_c" && find . -path ./windows -prune -o -path './users/*/Temp' -prune \
     -o -path './users/*/AppData/Local/Temp' -prune -o -print | sort)
  local key
  for key in "${keys[@]}"; do
    echo "[$key]"
    { wine reg query "$key" /s 2>/dev/null || true; } | tr -d '\r' | sed '/^$/d' | sort
  done
}
snapshot >"$out/before.txt"

# --- 1. install --------------------------------------------------------------------
step "silent install of $(basename "$installer") ($(du -h "$installer" | cut -f1))"
t0=$SECONDS
wine "$installer" /S
wineserver -w
echo "   installed in $((SECONDS - t0)) s"
target='C:\Program Files\Kernel Workbench'
dir="$WINEPREFIX/drive_c/Program Files/Kernel Workbench"
for f in bin/kernel-workbench.exe bin/kwb-run.exe Uninstall.exe share/kernel-workbench/samples/add_vectors.kwb; do
  [[ -f $dir/$f ]] || fail "$target\\${f//\//\\} is not installed"
done
ok "kernel-workbench.exe, kwb-run.exe, the samples and Uninstall.exe installed"
link=$(cd "$WINEPREFIX/drive_c" && find . -iname 'Kernel Workbench.lnk' -path '*Start Menu*' | head -1)
[[ -n $link ]] || fail "no Start-menu entry 'Kernel Workbench'"
ok "Start-menu entry $link"
assoc=$({ wine reg query 'HKLM\Software\Classes\.kwb' /ve 2>/dev/null || wine reg query 'HKCU\Software\Classes\.kwb' /ve; } | tr -d '\r')
grep -q KernelWorkbench.Document <<<"$assoc" || fail ".kwb is not associated: $assoc"
open=$({ wine reg query 'HKLM\Software\Classes\KernelWorkbench.Document\shell\open\command' /ve 2>/dev/null ||
         wine reg query 'HKCU\Software\Classes\KernelWorkbench.Document\shell\open\command' /ve; } | tr -d '\r')
grep -qF 'kernel-workbench.exe" "%1"' <<<"$open" || fail ".kwb's open command is not the window: $open"
ok ".kwb opens with kernel-workbench.exe"
# Windows' own DLLs only: Qt, its plugins and the C++ runtime are inside the programs.
system_dlls='^(api-ms-win-[a-z0-9-]+|shcore|advapi32|comdlg32|d3d11|d3d9|dwmapi|dwrite|dxgi|gdi32|imm32|kernel32|msvcrt|netapi32|ole32|oleaut32|setupapi|shell32|shlwapi|user32|userenv|uxtheme|version|winmm|winspool\.drv|ws2_32|wtsapi32|authz|bcrypt|comctl32|crypt32|mpr|ntdll|psapi|rpcrt4|secur32|dbghelp)(\.dll)?$'
for exe in kernel-workbench.exe kwb-run.exe; do
  x86_64-w64-mingw32-objdump -p "$dir/bin/$exe" | sed -n 's/^\s*DLL Name: //p' >"$out/imports-$exe.txt"
  other=$(tr 'A-Z' 'a-z' <"$out/imports-$exe.txt" | grep -Ev "$system_dlls" || true)
  [[ -z $other ]] || fail "$exe imports DLLs that are not Windows' own: $other"
done
ok "the programs import only Windows' DLLs ($(paste -sd' ' "$out/imports-kernel-workbench.exe.txt"))"

# --- 2. kwb-run ---------------------------------------------------------------------
step "kwb-run.exe --version, devices"
kwb() { wine "$dir/bin/kwb-run.exe" "$@" | tr -d '\r'; }
kwb --version | tee "$out/version.txt" | sed 's/^/   | /'
grep -q '^NVRTC: *not found' "$out/version.txt" || fail "--version found an NVRTC in a clean prefix"
kwb devices | tee "$out/devices.txt" | sed 's/^/   | /'
grep -q '^sim ' "$out/devices.txt" || fail "devices does not list the simulator"
ok "kwb-run runs; no NVRTC, the simulator listed"

# --- 3. the window --------------------------------------------------------------------
# window NAME: the window on add_vectors, its picture in $out/NAME.png, its output in $out/NAME.log.
window() {
  local png=$out/$1.png t0=$SECONDS
  rm -f "$png"
  # Qt's FreeType font engine: with the default Windows engines, Wine draws no text in
  # line edits and editable combo boxes (the rest of the window is the same).
  timeout 300 wine "$dir/bin/kernel-workbench.exe" -platform windows:fontengine=freetype \
    --size 1366x768 --screenshot "$(winepath -w "$png")" \
    "$target\\share\\kernel-workbench\\samples\\add_vectors.kwb" >"$out/$1.log" 2>&1 || true
  tr -d '\r' <"$out/$1.log" | sed 's/^/   | /'
  [[ -s $png ]] || fail "the window saved no picture ($1)"
  echo "   window opened, drew add_vectors and quit in $((SECONDS - t0)) s; $1.png $(stat -c %s "$png") bytes"
}
step "kernel-workbench.exe on add_vectors, no NVRTC"
window window
notice=$(tr -d '\r' <"$out/window.log" | sed -n 's/^compiler notice: //p')
[[ $notice == *"No CUDA compiler (NVRTC) found"* && $notice == *"CUDA Toolkit"* && $notice == *KWB_NVRTC* ]] \
  || fail "the first screen does not say that NVRTC is missing and what to install (notice: '$notice')"
ok "first screen: $notice"

# --- 4. NVRTC's search order with a stand-in ------------------------------------------
step "NVRTC's search order, with a stand-in NVRTC"
standin=$out/standin
mkdir -p "$standin"
x86_64-w64-mingw32-gcc -shared -O2 -o "$standin/nvrtc64_130_0.dll" "$here/nvrtc-stand-in.c"
x86_64-w64-mingw32-gcc -shared -O2 -DKW_BUILTINS -o "$standin/nvrtc-builtins64_130.dll" "$here/nvrtc-stand-in.c"
places="$WINEPREFIX/drive_c/kwb-standin"
put() { mkdir -p "$1" && cp "$standin"/*.dll "$1/"; }
# expect WHERE ORIGIN: --version names the stand-in in WHERE (a Windows folder), found as ORIGIN.
expect() {
  local line
  line=$(kwb --version | grep '^NVRTC:')
  echo "   | $line"
  [[ ${line,,} == *"${1,,}\\nvrtc64_130_0.dll"* && $line == *"($2, "* ]] || fail "expected NVRTC from $1 ($2)"
}
put "$places/path"
export WINEPATH='C:\kwb-standin\path'
expect 'C:\kwb-standin\path' system
ok "PATH"
put "$places/registry/v13.0/bin/x64"
wine reg add 'HKLM\SOFTWARE\NVIDIA Corporation\GPU Computing Toolkit\CUDA\v13.0' /v InstallDir /t REG_SZ \
  /d 'C:\kwb-standin\registry\v13.0' /f >/dev/null
expect 'C:\kwb-standin\registry\v13.0\bin\x64' system
ok "the registry's toolkit before PATH"
put "$places/cudapath/v13.0/bin/x64"
export CUDA_PATH='C:\kwb-standin\cudapath\v13.0'
expect 'C:\kwb-standin\cudapath\v13.0\bin\x64' system
ok "CUDA_PATH before the registry's toolkit"
cp "$standin"/*.dll "$dir/bin/"
expect "$target\\bin" bundled
ok "beside the program before CUDA_PATH"
rm "$dir"/bin/nvrtc*.dll
step "kernel-workbench.exe on add_vectors, NVRTC found in CUDA_PATH"
window window-nvrtc
! grep -q '^compiler notice:' "$out/window-nvrtc.log" || fail "the window says NVRTC is missing while CUDA_PATH has one"
ok "no notice when NVRTC is found"
unset WINEPATH CUDA_PATH
wine reg delete 'HKLM\SOFTWARE\NVIDIA Corporation' /f >/dev/null
rm -rf "$places"
wineserver -w

# --- 5. uninstall -------------------------------------------------------------------
step "silent uninstall"
snapshot >"$out/installed.txt"
wine "$dir/Uninstall.exe" /S
wineserver -w
sleep 1; wineserver -w # the uninstaller runs a copy of itself from Temp
snapshot >"$out/after.txt"
if ! diff -u "$out/before.txt" "$out/after.txt" >"$out/left.diff"; then
  sed 's/^/   | /' "$out/left.diff"; fail "the uninstaller left the above behind"
fi
[[ ! -e $dir ]] || fail "$target is still there"
ok "nothing left: C:\\ (outside C:\\windows and Temp) and the registry keys as before"
step "done: Wine proof passed in $((SECONDS - start)) s"
