#!/usr/bin/env bash
# The test suite: bootstrap (packages, configure, build), then ctest.
#   scripts/test.sh                 release build, all tests
#   COVERAGE=1 scripts/test.sh      coverage build; prints line and branch
#                                   coverage per top-level folder (gcovr)
#   SANITIZE=1 scripts/test.sh      AddressSanitizer + UBSan build (its test preset
#                                   runs 200 of the 1000 random starts)
# Extra arguments go to ctest (e.g. -R Spatial).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

preset=release
if [[ ${COVERAGE:-0} == 1 ]]; then preset=coverage; fi
if [[ ${SANITIZE:-0} == 1 ]]; then preset=asan; fi

build_start=$(date +%s)
scripts/bootstrap.sh "$preset"
echo "test.sh: $preset build took $(( $(date +%s) - build_start )) s"

if [[ $preset == asan ]]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
if [[ $preset == coverage ]]; then
  find build-coverage -name '*.gcda' -delete
fi

ctest --preset "$preset" -j "$(nproc)" "$@"

if [[ $preset == coverage ]]; then
  python_for_summary=$(command -v /usr/bin/python3 || command -v python3)
  gcovr --root "$root" --object-directory build-coverage \
        --filter 'reference/' --filter 'robust_geometry/' --filter 'validation/' \
        --exclude-unreachable-branches --exclude-throw-branches \
        --json-summary build-coverage/coverage-summary.json --print-summary
  "$python_for_summary" scripts/coverage_by_folder.py build-coverage/coverage-summary.json
fi
