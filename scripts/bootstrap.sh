#!/usr/bin/env bash
# Installs the Debian packages in scripts/debian-packages.txt that are missing
# and the browser tests' npm packages (tests/browser),
# then configures and builds a CMake preset (default: release): every target,
# or only the TARGETs given (scripts/reproduce.sh builds what its job runs).
# --main-job installs only the packages above the file's [tests] line and no
# npm package: what the main job needs (scripts/reproduce.sh).
# Idempotent: apt-get runs only when a package is missing, and the build is
# incremental. Usage: scripts/bootstrap.sh [--main-job] [PRESET [TARGET...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
main_job=false
if [[ ${1:-} == --main-job ]]; then main_job=true; shift; fi
preset=${1:-release}
shift || true
targets=()
if (($#)); then targets=(--target "$@"); fi

package_lines=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/debian-packages.txt | grep -v '^$')
if $main_job; then package_lines=$(sed -e '/^\[tests\]$/,$d' <<< "$package_lines"); fi
mapfile -t wanted < <(grep -v '^\[tests\]$' <<< "$package_lines")
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  echo "bootstrap: installing ${#missing[@]} Debian package(s): ${missing[*]}"
  sudo=""
  if [[ $(id -u) != 0 ]]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages of the browser tests (tests/browser/package-lock.json:
# puppeteer-core, which drives Debian's chromium and downloads no browser).
browser_lock=tests/browser/node_modules/.package-lock.json
if ! $main_job && [[ ! -f $browser_lock || tests/browser/package-lock.json -nt $browser_lock ]]; then
  echo "bootstrap: installing the browser tests' npm packages (tests/browser)"
  npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
fi

jobs=$(nproc)
if [[ ! -f build-$preset/CMakeCache.txt && ! ( $preset == release && -f build/CMakeCache.txt ) ]]; then
  cmake --preset "$preset"
fi
cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
