#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build, test and run Kernel Workbench,
# and checks for the CUDA Toolkit. Safe to run again: when everything is present
# it changes nothing and does not touch the network.
set -euo pipefail

PACKAGES=(
  cmake ninja-build g++ pkg-config ccache libseccomp-dev
  nlohmann-json3-dev libmuparser-dev libpugixml-dev libcli11-dev libfmt-dev libgtest-dev
  qt6-base-dev qt6-svg-dev libqscintilla2-qt6-dev libqcustomplot-dev
  xvfb xauth python3-numpy
  # Lints the exported Python programs (tests/export).
  pyflakes3
  # A third-party Debug Adapter Protocol client for kwb-run debug --dap (tests/dap).
  emacs-nox elpa-dap-mode
  # Runs the VS Code extension's Lanes view against the adapter (tests/dap).
  nodejs
  # Real servers for the tests labelled `remote` (started by the tests, on loopback).
  openssh-server openssh-client munge slurmctld slurmd slurm-client
  # The sanitizer build and the fuzz targets (scripts/sanitize.sh).
  clang libclang-rt-14-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=()
  if ((EUID != 0)); then
    if ! command -v sudo >/dev/null; then
      echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#PACKAGES[@]} packages are installed"
fi

# The CUDA Toolkit is not a Debian package here: NVIDIA's installer puts it in
# /usr/local/cuda. The build needs its headers (cuda.h, nvrtc.h); compiling
# kernels at run time needs NVRTC. A GPU driver is optional (the CPU simulator
# runs kernels without one).
cuda_root=${CUDAToolkit_ROOT:-${CUDA_HOME:-/usr/local/cuda}}
problems=()
[[ -d $cuda_root ]] || problems+=("folder $cuda_root does not exist")
if [[ -d $cuda_root ]]; then
  for header in cuda.h nvrtc.h; do
    [[ -f $cuda_root/include/$header ]] || problems+=("$cuda_root/include/$header is missing")
  done
  compgen -G "$cuda_root/lib64/libnvrtc.so*" >/dev/null \
    || compgen -G "$cuda_root/targets/*/lib/libnvrtc.so*" >/dev/null \
    || problems+=("NVRTC (libnvrtc.so) is missing under $cuda_root")
fi
if ((${#problems[@]})); then
  echo "install-deps: the CUDA Toolkit was not found:" >&2
  printf '  - %s\n' "${problems[@]}" >&2
  cat >&2 <<'MSG'
Install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads, Linux >
Debian 12, package "cuda-toolkit"), which creates /usr/local/cuda, or point
CUDAToolkit_ROOT at an existing installation.
MSG
  exit 1
fi
echo "install-deps: CUDA Toolkit at $cuda_root"
