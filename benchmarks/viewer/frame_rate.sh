#!/usr/bin/env bash
# The run viewer's frame rate (issue 33 item 2): on the sliding octagon (a
# small run: what the renderer costs at all) and on a 10,000-row run of the
# foot's 56k samples (foot_run.py, from the foot-tractions figure's data),
# each served by `contactref view` and measured by frame_rate.mjs in
# headless Chromium. Needs the test tools (scripts/test.sh installs them:
# chromium, node, tests/browser's puppeteer-core) and the built viewer.
# Usage: benchmarks/viewer/frame_rate.sh [BUILD] [FOOT_CSV]
#   BUILD     the build folder (default build)
#   FOOT_CSV  the foot-tractions figure's foot.csv (default: drawn here,
#             about a minute)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
contactref=$build/contactref
source "$root/tests/browser/require_browser.sh"
python=$(sed -n 's/^CONTACTREF_PYTHON_FOR_SCRIPTS:INTERNAL=//p' "$build/CMakeCache.txt")
dir=$(mktemp -d)
server=""
trap '[[ -n $server ]] && kill "$server" 2> /dev/null; rm -rf "$dir"' EXIT

foot_csv=${2:-}
if [[ -z $foot_csv ]]; then
  "$contactref" figures --only foot-tractions --out "$dir/figure" > /dev/null
  foot_csv=$dir/figure/figures/foot-tractions/foot.csv
fi
"$contactref" simulate "$root/validation/fixtures/scenes/octagon_sliding.json" --out "$dir/octagon" > /dev/null
"${python:-python3}" "$here/foot_run.py" "$foot_csv" "$dir/foot" --rows 10000

for run in octagon foot; do
  rm -f "$dir/serve.log"  # the last server's address must not be read for this one's
  "$contactref" view "$dir/$run" --for 900 > "$dir/serve.log" 2>&1 &
  server=$!
  url=""
  for _ in $(seq 600); do
    url=$(grep -o 'http://[^ ]*' "$dir/serve.log" 2> /dev/null || true)
    [[ -n $url ]] && break
    sleep 0.1
  done
  [[ -n $url ]] || { cat "$dir/serve.log" >&2; exit 1; }
  echo "== $run: $(head -1 "$dir/serve.log")"
  node "$here/frame_rate.mjs" "$url" 8
  kill "$server"
  wait "$server" 2> /dev/null || true
  server=""
done
