#!/usr/bin/env bash
# The workflow's Slurm path: starts a single-node Slurm cluster
# (scripts/slurm-single-node.sh, state in a temporary folder), runs
# tests/workflow/tiny.yaml through Snakemake's --slurm executor
# (workflow/profiles/slurm), checks the same outputs as the local test
# (tests/workflow/checks.py), checks that the jobs ran as Slurm jobs (the
# cluster's job-completion log), and stops the cluster.
#   tests/workflow/slurm_test.sh [BUILD_DIR]     (default: build); needs root
# KEEP=1 keeps the temporary folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
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
# by Snakemake's job name, snakejob_RULE_N.
jobcomp=$SLURM_STATE_DIR/log/jobcomp.log
expected_rules=(suite suite figure benchmark sweep_run sweep_run)
for rule in suite figure benchmark sweep_run; do
  wanted=$(printf '%s\n' "${expected_rules[@]}" | grep -cx "$rule")
  found=$(grep -c "Name=snakejob_${rule}_[0-9]* JobState=COMPLETED" "$jobcomp" || true)
  if ((found != wanted)); then
    echo "slurm_test: FAIL: $found completed Slurm jobs of rule $rule in $jobcomp, expected $wanted" >&2
    cat "$jobcomp" >&2
    exit 1
  fi
done
echo "slurm_test: passed: $(wc -l < "$jobcomp") Slurm jobs completed ($jobcomp); $(($(date +%s) - start)) s" >&2
