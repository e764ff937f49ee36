#!/usr/bin/env bash
# ctest (issue 32 item 3): the report of a real run, opened in headless
# Chromium by report_page_check.mjs: two quick suites, one figure, one
# animation (made as the workflow makes it: a simulate run drawn by
# paper_figures/animate_run.py; its suite is not in the run, so the report
# shows it in its paper's section) and, when given, one benchmark program's
# JSON. Then the check is shown to fail where
# it must: a figure that does not decode, and a summary number that is not
# validation.json's.
# Usage: report_in_browser_test.sh CONTACTREF PYTHON [BENCHMARK_PROGRAM]
set -euo pipefail
contactref=$1
python=$2
bench=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
source "$here/require_browser.sh"

"$contactref" validate brep-contact torque-free-body --quick --out "$dir" > /dev/null
"$contactref" figures --only torque-free-convergence --out "$dir" 2> /dev/null
animation=$dir/animations/octagon-sliding
"$contactref" simulate "$root/validation/fixtures/scenes/octagon_sliding.json" --out "$animation/run" > /dev/null
"$python" "$root/paper_figures/animate_run.py" "$animation/run" "$animation/octagon-sliding.gif" --frames 4
if [[ -n $bench ]]; then
  mkdir -p "$dir/benchmarks"
  "$bench" --benchmark_filter='BM_AdjointApply<double>' --benchmark_min_time=0.001 \
           --benchmark_out="$dir/benchmarks/$(basename "$bench").json" --benchmark_out_format=json > /dev/null
fi
"$python" "$root/paper_figures/report.py" "$dir"
node "$here/report_page_check.mjs" "$dir" --min-images 2
grep -q 'contactref view animations/octagon-sliding/run' "$dir/report.html" ||
  { echo "report_in_browser_test: the report does not give the viewer's command for the animation" >&2; exit 1; }

# expect_failure WHAT PATTERN: the check exits 1 and its output names PATTERN.
expect_failure() {
  local status=0 output
  output=$(node "$here/report_page_check.mjs" "$dir" --min-images 2 2>&1) || status=$?
  if [[ $status != 1 || $output != *"$2"* ]]; then
    echo "report_in_browser_test: $1 was not caught (exit $status): $output" >&2
    exit 1
  fi
}
figure="$dir/figures/torque-free-convergence/torque-free-convergence.png"
cp "$figure" "$dir/figure.png.good"
printf 'not a PNG' > "$figure"
expect_failure "a figure that does not decode" "image did not load: figures/torque-free-convergence"
mv "$dir/figure.png.good" "$figure"
cp "$animation/octagon-sliding.gif" "$dir/animation.gif.good"
printf 'not a GIF' > "$animation/octagon-sliding.gif"
expect_failure "an animation that does not decode" "image did not load: animations/octagon-sliding"
mv "$dir/animation.gif.good" "$animation/octagon-sliding.gif"
sed -i '0,/<td class="checks">[0-9]* of/s//<td class="checks">999 of/' "$dir/report.html"
expect_failure "a summary count that is not validation.json's" "checks '999 of"
echo "report_in_browser_test: passed"
