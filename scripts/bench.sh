#!/usr/bin/env bash
# Runs every Google Benchmark program (build/benchmarks/bench_*) and writes
# its JSON to out/benchmarks/NAME.json, where the report finds it; extra
# arguments go to each program (for example --benchmark_filter=Adjoint or
# --benchmark_repetitions=10).
#   BENCH_PRESET=native scripts/bench.sh ...   the programs of the native
#     preset (-march=native, build-native/), JSON in out/benchmarks-native/;
#     Google Benchmark's compare.py (Debian libbenchmark-tools) sets the two
#     side by side, under Debian's interpreter (which has SciPy):
#     /usr/bin/python3 /usr/share/benchmark/compare.py benchmarks out/benchmarks/NAME.json out/benchmarks-native/NAME.json
# BENCH_PROGRAMS="bench_a bench_b" runs only those programs (built alone).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
preset=${BENCH_PRESET:-release}
case "$preset" in
  release) build=build out=out/benchmarks ;;
  native) build=build-native out=out/benchmarks-native ;;
  *) echo "bench.sh: BENCH_PRESET must be release or native, got '$preset'" >&2; exit 2 ;;
esac
read -r -a programs <<< "${BENCH_PROGRAMS:-}"
scripts/bootstrap.sh --sections bench "$preset" "${programs[@]}"
mkdir -p "$out"
if ((${#programs[@]} == 0)); then programs=("$build"/benchmarks/bench_*); else programs=("${programs[@]/#/$build/benchmarks/}"); fi
for program in "${programs[@]}"; do
  name=$(basename "$program")
  echo "== $name ($preset)" >&2
  "$program" --benchmark_out="$out/$name.json" --benchmark_out_format=json "$@"
done
echo "bench: JSON in $out/" >&2
