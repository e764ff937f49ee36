#!/usr/bin/env bash
# The examples against the installed package: installs the release build into
# build/install (afresh, so that nothing a previous install left behind can
# hide a file the install rules miss), configures and builds examples/ in
# build/examples with only that prefix to find contactref, and runs each
# example (each checks what it computes and exits 1 if it is wrong).
# Builds the release preset first (scripts/bootstrap.sh; quick when built).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

scripts/bootstrap.sh release

prefix=$root/build/install
rm -rf "$prefix"
cmake --install build --prefix "$prefix" > /dev/null

launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S examples -B build/examples -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" > /dev/null
cmake --build build/examples -j "$(nproc)"

for source in examples/*.cpp; do  # one program per source file
  example=$(basename "$source" .cpp)
  echo "== examples/$example"
  "build/examples/$example"
done
