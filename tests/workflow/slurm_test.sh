#!/usr/bin/env bash
# The workflow's Slurm path: starts a single-node Slurm cluster
# (scripts/slurm-single-node.sh, state in a temporary folder), runs
# tests/workflow/tiny.yaml through Snakemake's --slurm executor
# (workflow/profiles/slurm), checks the same outputs as the local test
# (tests/workflow/checks.py), checks that the jobs ran as Slurm jobs (the
# cluster's job-completion log), and stops the cluster.
#   tests/workflow/slurm_test.sh [BUILD_DIR]     (default: build)
# Needs root (slurmd); exits 77 (ctest: skipped) without it. The daemons
# listen on ports 16817 and 16818, apart from a real cluster's 6817 and 6818
# (SLURM_CTLD_PORT, SLURM_D_PORT). KEEP=1 keeps the temporary folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [[ $(id -u) != 0 ]]; then
  echo "slurm_test: skipped: needs root (slurmd starts jobs as their submitting user)" >&2
  exit 77
fi
export SLURM_CTLD_PORT=${SLURM_CTLD_PORT:-16817} SLURM_D_PORT=${SLURM_D_PORT:-16818}
build=$(cd "${1:-$root/build}" && pwd)
python=$(sed -n 's/^CONTACTREF_PYTHON_FOR_SCRIPTS:INTERNAL=//p' "$build/CMakeCache.txt" 2> /dev/null || true)
[[ -n $python ]] || python=/usr/bin/python3
# Snakemake 7.21's --slurm looks up the user's Slurm account with
# `sacct -u $USER`, and fails without USER (as under a CI runner as root).
export USER=${USER:-$(id -un)}

tmp=$(mktemp -d /tmp/contactref-slurm-XXXXXX)
export SLURM_STATE_DIR=$tmp/slurm
export SLURM_CONF=$SLURM_STATE_DIR/slurm.conf
finish() {
  "$root/scripts/slurm-single-node.sh" stop > /dev/null || true
  if [[ -n ${KEEP:-} ]]; then echo "slurm_test: kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap finish EXIT

start=$(date +%s)
"$root/scripts/slurm-single-node.sh" start
mkdir -p "$tmp/work"
status=0
snakemake --snakefile "$root/workflow/Snakefile" --directory "$tmp/work" --profile "$root/workflow/profiles/slurm" \
  --configfile "$root/tests/workflow/tiny.yaml" --config "build=$build" out=out || status=$?
if ((status != 0)); then
  echo "slurm_test: FAIL: the workflow exited $status; the cluster's logs:" >&2
  tail -n 20 "$SLURM_STATE_DIR"/log/slurmctld.log "$SLURM_STATE_DIR"/log/slurmd.log >&2
  exit 1
fi
"$python" "$root/tests/workflow/checks.py" "$tmp/work/out" --build "$build" || exit 1

# Every job but the local bookkeeping ones (the Snakefile's localrules) must
# have run as a Slurm job and completed: the job-completion log names each
# by Snakemake's job name, snakejob_RULE_N. How many of each rule tiny.yaml has:
jobcomp=$SLURM_STATE_DIR/log/jobcomp.log
expected=$("$python" - "$root/tests/workflow/tiny.yaml" << 'PY'
import math, sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
points = sum(math.prod(len(v) for v in s["set"].values()) for s in config.get("sweeps", {}).values())
print(f"suite={len(config['suites'])} figure={len(config['figures'])} "
      f"benchmark={len(config['benchmarks'])} sweep_run={points} "
      f"animation_run={len(config['animations'])} animation={len(config['animations'])}")
PY
)
for pair in $expected; do
  rule=${pair%=*} wanted=${pair#*=}
  found=$(grep -cE "Name=snakejob_${rule}(_first[0-9]+)?_[0-9]+ JobState=COMPLETED" "$jobcomp" || true)
  if ((found != wanted)); then
    echo "slurm_test: FAIL: $found completed Slurm jobs of rule $rule in $jobcomp, expected $wanted" >&2
    cat "$jobcomp" >&2
    exit 1
  fi
done
echo "slurm_test: passed: $(wc -l < "$jobcomp") Slurm jobs completed ($jobcomp); $(($(date +%s) - start)) s" >&2
