#!/usr/bin/env bash
# ctest (issue 33 items 2, 4, 5): the run viewer in headless Chromium. For a
# run of each model (6D, point, smooth, quasi-rigid), `contactref view`
# serves it and viewer_page_check.mjs checks the page's frames, poses and
# contact markers against the run's files and that the canvas is drawn.
# Then the page on a damaged run: a truncated bodies.csv and a missing
# shape, each named on the page.
# Usage: viewer_in_browser_test.sh CONTACTREF
set -euo pipefail
contactref=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scenes=$root/validation/fixtures/scenes
dir=$(mktemp -d)
server=""
trap '[[ -n $server ]] && kill "$server" 2> /dev/null; rm -rf "$dir"' EXIT
source "$here/require_browser.sh"

# serve RUN: starts `contactref view RUN` (for at most 5 minutes) and sets url.
serve() {
  "$contactref" view "$1" --for 300 > "$dir/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    url=$(grep -o 'http://[^ ]*' "$dir/serve.log" || true)
    [[ -n $url ]] && return 0
    kill -0 "$server" 2> /dev/null || break
    sleep 0.1
  done
  echo "viewer_in_browser_test: contactref view $1 printed no address:" >&2
  cat "$dir/serve.log" >&2
  exit 1
}
stop() {
  kill "$server"
  wait "$server" 2> /dev/null || true
  server=""
}

for scene in octagon_sliding octagon_sliding_points bowl_thrown_on_table quasi_rigid_spinning_ball; do
  "$contactref" simulate "$scenes/$scene.json" --out "$dir/$scene" > /dev/null 2>&1
  serve "$dir/$scene"
  checked=$(node "$here/viewer_page_check.mjs" "$url" "$dir/$scene")  # exits the test when the check fails (set -e)
  echo "$scene: $checked"
  stop
done

# The page on runs damaged after the server checked them.
run=$dir/octagon_sliding
serve "$run"
cp "$run/bodies.csv" "$dir/bodies.csv.good"
head -c 3000 "$dir/bodies.csv.good" > "$run/bodies.csv"
node "$here/viewer_page_check.mjs" "$url" "$run" --expect-error "bodies.csv:11: 15 cells where the header has 17"
cp "$dir/bodies.csv.good" "$run/bodies.csv"
rm "$run/shapes/body1.ply"
node "$here/viewer_page_check.mjs" "$url" "$run" --expect-error "shapes/body1.ply: missing (HTTP 404)"
stop
echo "viewer_in_browser_test: passed"
