# Sourced by the Windows build scripts: the Debian packages they need, Debian's source
# packages fetched with an apt setup of their own, and ccache for the cross compiles.

# require_packages PACKAGE...: installs those not yet installed (one apt-get call).
require_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true) == "install ok installed" ]] || missing+=("$pkg")
  done
  ((${#missing[@]})) || return 0
  echo "installing ${missing[*]}"
  local sudo=()
  ((EUID == 0)) || sudo=(sudo)
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# fetch_debian_source APT_DIR DEST PACKAGE [VERSION]: unpacks Debian 12's source of
# PACKAGE (patches applied) into DEST. A deb-src list and apt state of its own in
# APT_DIR leave the system's apt setup untouched.
fetch_debian_source() {
  local apt_dir=$1 dest=$2 pkg=$3 version=${4:-}
  local opts=(-o "Dir::Etc::SourceList=$apt_dir/deb-src.sources" -o "Dir::Etc::SourceParts=-"
              -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "Debug::NoLocking=1")
  if [[ ${_debian_sources_updated:-} != "$apt_dir" ]]; then
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    cat >"$apt_dir/deb-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get "${opts[@]}" update -qq || return 1
    _debian_sources_updated=$apt_dir # once per run: the archive moves on between runs
  fi
  local parent
  parent=$(dirname "$dest")
  mkdir -p "$parent"
  # "|| return": callers may test the result, where set -e does not stop a function.
  (cd "$parent" && apt-get "${opts[@]}" source --download-only "$pkg${version:+=$version}") || return 1
  (cd "$parent" && rm -rf "$dest.tmp" "$dest" && dpkg-source -x ./"${pkg}"_*.dsc "$dest.tmp" && mv "$dest.tmp" "$dest")
}

# The compiler launcher arguments for CMake when ccache is installed.
ccache_launcher=()
command -v ccache >/dev/null && ccache_launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
