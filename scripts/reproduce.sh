#!/usr/bin/env bash
# The main job: bootstrap, every validation suite, every figure, and the
# report out/report.md + out/report.html (figures inline), run by the
# Snakemake workflow (workflow/Snakefile): one job per suite and per figure,
# as many at once as the machine has cores.
#   scripts/reproduce.sh                full suites
#   scripts/reproduce.sh --quick        each suite's quick variant (smoke run)
#   scripts/reproduce.sh --benchmarks   also every benchmark program of the
#                                       catalogue (out/benchmarks/PROGRAM.json)
# Every run starts afresh (--forceall); for incremental runs, sweeps or a
# cluster, call snakemake yourself (README, "The workflow").
# Exit code: 0 when every suite passed and every figure was drawn, else 1.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() { echo "usage: scripts/reproduce.sh [--quick] [--benchmarks]" >&2; exit 2; }
quick=false
benchmarks=none
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    --benchmarks) benchmarks=all ;;
    *) usage ;;
  esac
done

# Only what the job runs: the CLI, and the two benchmark programs behind the
# table-i figure (validation/figures/table_i.cpp); with --benchmarks every
# target (the benchmark programs among them), as scripts/test.sh builds.
# Only the main job's packages (scripts/debian-packages.txt, above its sections).
if [[ $benchmarks == all ]]; then
  scripts/bootstrap.sh --sections "" release || exit 1
else
  scripts/bootstrap.sh --sections "" release contactref bench_surfaces bench_s_patch || exit 1
fi
cores=$(nproc)
echo "== workflow: suites, figures$([[ $benchmarks == all ]] && echo ', benchmarks'), report ($cores jobs at once)" >&2
# --keep-going: a job that fails outright (bad input, a crash) does not stop
# the others; a failed suite or figure is reported by the last job, verdict.
status=0
snakemake --snakefile workflow/Snakefile --directory "$root" --cores "$cores" --forceall --rerun-incomplete --keep-going \
  --config out=out quick=$quick benchmarks=$benchmarks || status=1
echo "reproduce: report in out/report.md and out/report.html ($([[ $status == 0 ]] && echo 'all passed' || echo 'FAILURES: see above'))" >&2
exit $status
