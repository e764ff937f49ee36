#!/usr/bin/env bash
# Runs every libFuzzer target (fuzz/README.md) for SECONDS each (default 60)
# in the sanitized build (preset asan, built if needed), one after another.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#   FUZZ_SEED=N scripts/fuzz.sh ...   libFuzzer's random seed (CI: 1, so that a
#                                     CI run mutates the same way each time)
# Corpora grow under build-asan/fuzz/corpus/<target> (seeded from the
# repository's files); a crash, a timeout (10 s per input), an out-of-memory or
# an unsound CLI run (fuzz/cli_harness.hpp) writes the input to
# build-asan/fuzz/findings/<target>/ and makes the script fail. Prints, per
# target, the executions and the coverage libFuzzer reached.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
shift || true
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds == 0)); then
  echo "fuzz.sh: SECONDS must be a positive whole number (got '$seconds')" >&2
  exit 2
fi

scripts/bootstrap.sh asan > /dev/null
build=build-asan
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

failed=()
printf '%-26s %12s %8s %8s %s\n' target executions cov ft result
while read -r target seeds; do
  if (($#)) && [[ " $* " != *" $target "* ]]; then continue; fi
  corpus=$build/fuzz/corpus/$target
  findings=$build/fuzz/findings/$target
  mkdir -p "$corpus" "$findings"
  dict=()
  [[ -f fuzz/dict/$target.dict ]] && dict=(-dict="fuzz/dict/$target.dict")
  log=$build/fuzz/$target.log
  # shellcheck disable=SC2086  # seeds: folders separated by spaces
  if "$build/fuzz/$target" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -seed="${FUZZ_SEED:-0}" -artifact_prefix="$findings/" "$corpus" $seeds > "$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log and $findings/)"
    failed+=("$target")
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  printf '%-26s %12s %8s %8s %s\n' "$target" "$runs" "$cov" "$ft" "$result"
done < "$build/fuzz-targets.txt"

if ((${#failed[@]})); then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
