#!/usr/bin/env bash
# Installs the Debian packages in scripts/debian-packages.txt that are missing
# and the npm packages of the browser tests (tests/browser) and the viewer (viewer/),
# then configures and builds a CMake preset (default: release): every target,
# or only the TARGETs given (scripts/reproduce.sh builds what its job runs).
# The file's packages above its first [section] line build contactref and run
# its main job; --sections "LIST" names the sections installed besides them
# (default "tests": scripts/test.sh; scripts/reproduce.sh gives "",
# scripts/bench.sh "bench"). The npm packages come with the tests.
# Idempotent: apt-get runs only when a package is missing, and the build is
# incremental. Usage: scripts/bootstrap.sh [--sections "LIST"] [PRESET [TARGET...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sections=tests
if [[ ${1:-} == --sections ]]; then sections=${2?--sections needs a list}; shift 2; fi
preset=${1:-release}
shift || true
targets=()
if (($#)); then targets=(--target "$@"); fi

# The packages of the main part and of the sections asked for.
wanted=()
section=""
while read -r line; do
  if [[ $line =~ ^\[([a-z]+)\]$ ]]; then section=${BASH_REMATCH[1]}; continue; fi
  if [[ -z $section || " $sections " == *" $section "* ]]; then wanted+=("$line"); fi
done < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/debian-packages.txt | grep -v '^$')
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

# npm packages (each folder's package-lock.json): the browser tests'
# puppeteer-core (tests/browser), which drives Debian's chromium and
# downloads no browser, and the viewer's three.js and esbuild (viewer/),
# which the build bundles into BUILD/viewer/.
for folder in tests/browser viewer; do
  lock=$folder/node_modules/.package-lock.json
  if [[ " $sections " == *" tests "* ]] && [[ ! -f $lock || $folder/package-lock.json -nt $lock ]]; then
    echo "bootstrap: installing the npm packages of $folder"
    npm ci --prefix "$folder" --no-audit --no-fund --loglevel=error
  fi
done

jobs=$(nproc)
if [[ ! -f build-$preset/CMakeCache.txt && ! ( $preset == release && -f build/CMakeCache.txt ) ]]; then
  cmake --preset "$preset"
fi
cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
