#!/usr/bin/env bash
# Runs every Google Benchmark program (build/benchmarks/bench_*) and writes
# its JSON to out/bench/NAME.json; extra arguments go to each program (for
# example --benchmark_filter=Adjoint or --benchmark_repetitions=10).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/bootstrap.sh release
mkdir -p out/bench
for program in build/benchmarks/bench_*; do
  name=$(basename "$program")
  echo "== $name" >&2
  "$program" --benchmark_out="out/bench/$name.json" --benchmark_out_format=json "$@"
done
echo "bench: JSON in out/bench/" >&2
