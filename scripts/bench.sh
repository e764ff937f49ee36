#!/usr/bin/env bash
# Runs every Google Benchmark program (build/benchmarks/bench_*) and writes
# its JSON to out/benchmarks/NAME.json, where the report finds it; extra
# arguments go to each program (for example --benchmark_filter=Adjoint or
# --benchmark_repetitions=10).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/bootstrap.sh release
mkdir -p out/benchmarks
for program in build/benchmarks/bench_*; do
  name=$(basename "$program")
  echo "== $name" >&2
  "$program" --benchmark_out="out/benchmarks/$name.json" --benchmark_out_format=json "$@"
done
echo "bench: JSON in out/benchmarks/" >&2
