#!/usr/bin/env bash
# The main job: bootstrap, every validation suite, every figure, and the
# report out/report.md + out/report.html (figures inline).
#   scripts/reproduce.sh           full suites
#   scripts/reproduce.sh --quick   each suite's quick variant (smoke run)
# Exit code: 0 when every suite passed and every figure was drawn, else 1.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

quick=()
case "${1:-}" in
  --quick) quick=(--quick) ;;
  "") ;;
  *) echo "usage: scripts/reproduce.sh [--quick]" >&2; exit 2 ;;
esac

# Only what the job runs: the CLI, and the two benchmark programs behind the
# table-i figure (validation/figures/table_i.cpp); scripts/test.sh builds the rest.
scripts/bootstrap.sh release contactref bench_surfaces bench_s_patch || exit 1
mkdir -p out
status=0
echo "== validation suites" >&2
build/contactref validate all "${quick[@]}" --out out || status=1
echo "== figures" >&2
build/contactref figures --out out || status=1
echo "== report" >&2
python=$(sed -n 's/^CONTACTREF_PYTHON_FOR_SCRIPTS:INTERNAL=//p' build/CMakeCache.txt)
[[ -n $python ]] || python=/usr/bin/python3
"$python" paper_figures/report.py out || status=1
echo "reproduce: report in out/report.md and out/report.html ($([[ $status == 0 ]] && echo 'all passed' || echo 'FAILURES'))" >&2
exit $status
