#!/usr/bin/env bash
# Runs every libFuzzer target (fuzz/README.md) for SECONDS each (default 60)
# in a fuzzing build (built if needed), as many at once as there are cores.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#   FUZZ_SEED=N scripts/fuzz.sh ...   libFuzzer's random seed (CI: 1, so that a
#                                     CI run mutates the same way each time)
#   FUZZ_RUNS=N scripts/fuzz.sh ...   also stop a target after N executions
#   FUZZ_PRESET=fuzz scripts/fuzz.sh  the UBSan-only optimised build (long
#                                     campaigns); default asan (ASan + UBSan)
# Corpora grow under build-<preset>/fuzz/corpus/<target> (seeded from the
# repository's files); a crash, a timeout (per input: 10 s in preset fuzz, 30 s
# under ASan, which runs Eigen's code ~35x slower), an out-of-memory or
# an unsound CLI run (fuzz/cli_harness.hpp) writes the input to
# build-<preset>/fuzz/findings/<target>/ and makes the script fail. Prints, per
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

preset=${FUZZ_PRESET:-asan}
if [[ $preset != asan && $preset != fuzz ]]; then
  echo "fuzz.sh: FUZZ_PRESET must be asan or fuzz (got '$preset')" >&2
  exit 2
fi
runs=()
if [[ -n ${FUZZ_RUNS:-} ]]; then
  if ! [[ $FUZZ_RUNS =~ ^[0-9]+$ ]] || ((FUZZ_RUNS == 0)); then
    echo "fuzz.sh: FUZZ_RUNS must be a positive whole number (got '$FUZZ_RUNS')" >&2
    exit 2
  fi
  runs=(-runs="$FUZZ_RUNS")
fi

timeout=30
[[ $preset == fuzz ]] && timeout=10

scripts/bootstrap.sh "$preset" > /dev/null
build=build-$preset
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# One target per core at a time (CI: two 10 s campaigns at once); the table
# follows in the targets' order once all have run.
jobs_at_once=$(nproc)
targets=()
run_target() {  # TARGET SEEDS...: one campaign; its exit code in $log.rc
  local target=$1 seeds=$2
  local corpus=$build/fuzz/corpus/$target findings=$build/fuzz/findings/$target log=$build/fuzz/$target.log
  mkdir -p "$corpus" "$findings"
  local dict=()
  [[ -f fuzz/dict/$target.dict ]] && dict=(-dict="fuzz/dict/$target.dict")
  local rc=0
  # shellcheck disable=SC2086  # seeds: folders separated by spaces
  "$build/fuzz/$target" "${dict[@]}" "${runs[@]}" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -seed="${FUZZ_SEED:-0}" -artifact_prefix="$findings/" "$corpus" $seeds > "$log" 2>&1 || rc=$?
  echo "$rc" > "$log.rc"
}
while read -r target seeds; do
  if (($#)) && [[ " $* " != *" $target "* ]]; then continue; fi
  targets+=("$target")
  while (($(jobs -rp | wc -l) >= jobs_at_once)); do wait -n || true; done
  run_target "$target" "$seeds" &
done < "$build/fuzz-targets.txt"
wait

failed=()
printf '%-26s %12s %8s %8s %s\n' target executions cov ft result
for target in "${targets[@]}"; do
  log=$build/fuzz/$target.log
  if [[ $(cat "$log.rc") == 0 ]]; then
    result=ok
  else
    result="FINDING (see $log and $build/fuzz/findings/$target/)"
    failed+=("$target")
  fi
  executed=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  printf '%-26s %12s %8s %8s %s\n' "$target" "$executed" "$cov" "$ft" "$result"
done

if ((${#failed[@]})); then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
