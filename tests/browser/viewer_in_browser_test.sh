#!/usr/bin/env bash
# ctest (issue 33 items 2, 4, 5): the run viewer in headless Chromium. For a
# run of each model (6D, point, smooth, quasi-rigid with its samples in
# contacts.csv and in samples.bin), `contactref view`
# serves it and viewer_page_check.mjs checks the page's frames, poses and
# contact markers against the run's files and that the canvas is drawn.
# Then the page on a damaged run: a truncated bodies.csv, a missing shape
# and a truncated samples.bin, each named on the page.
# Usage: viewer_in_browser_test.sh CONTACTREF PYTHON (one with numpy)
set -euo pipefail
contactref=$1
python=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scenes=$root/validation/fixtures/scenes
dir=$(mktemp -d)
server=""
trap '[[ -n $server ]] && kill "$server" 2> /dev/null; rm -rf "$dir"' EXIT
source "$here/require_browser.sh"

# serve RUN: starts `contactref view RUN` (for at most 5 minutes) and sets url.
# The last server's log goes first: the new one truncates it only once it
# runs, and a loaded machine let this loop read the last (stopped) server's
# address from it (net::ERR_CONNECTION_REFUSED).
serve() {
  rm -f "$dir/serve.log"
  "$contactref" view "$1" --for 300 > "$dir/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    url=$(grep -o 'http://[^ ]*' "$dir/serve.log" 2> /dev/null || true)
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

# The quasi-rigid run once more with its samples in samples.bin.
sed 's/"output": {"interval": 0.005}/"output": {"interval": 0.005, "samples": "binary"}/' \
  "$scenes/quasi_rigid_spinning_ball.json" > "$dir/quasi_rigid_binary.json"
grep -q '"samples": "binary"' "$dir/quasi_rigid_binary.json"
# A point cloud of 20,000 points (an ellipsoid the foot's size) carried by
# benchmarks/viewer/foot_run.py's made-up motion over 60 rows, its lower
# points loaded: the point budget, and the generator the frame-rate
# benchmark uses.
"$python" - "$dir/cloud.csv" << 'PY'
import math, sys
with open(sys.argv[1], "w") as out:
    out.write("x,y,z,u,p\n")
    for k in range(20000):
        z = 1 - 2 * (k + 0.5) / 20000
        r, a = math.sqrt(1 - z * z), k * math.pi * (3 - math.sqrt(5))
        x, y, zz = 0.13 * (1 + r * math.cos(a)), 0.05 * r * math.sin(a), 0.05 * (1 + z)
        out.write(f"{x:.6g},{y:.6g},{zz:.6g},0,{max(0.0, 0.004 - zz) * 1e7:.6g}\n")
PY
"$python" "$root/benchmarks/viewer/foot_run.py" "$dir/cloud.csv" "$dir/point_cloud" --rows 60 > /dev/null
for scene in octagon_sliding octagon_sliding_points bowl_thrown_on_table quasi_rigid_spinning_ball quasi_rigid_binary point_cloud; do
  file=$scenes/$scene.json
  [[ -f $file ]] || file=$dir/$scene.json
  [[ -f $file ]] && "$contactref" simulate "$file" --out "$dir/$scene" > /dev/null 2>&1
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
run=$dir/quasi_rigid_binary
serve "$run"
truncate -s -6 "$run/samples.bin"
node "$here/viewer_page_check.mjs" "$url" "$run" --expect-error "not a whole number of records (a truncated file)"
stop
echo "viewer_in_browser_test: passed"
