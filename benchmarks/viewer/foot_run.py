"""Writes a run folder of the foot's samples for measuring the run viewer
(issue 33 item 2: smooth on a 10,000-row run of the foot's 56k samples).

    foot_run.py FOOT_CSV OUT_DIR [--rows 10000]

FOOT_CSV is the foot-tractions figure's foot.csv (`contactref figures --only
foot-tractions`: Pauly et al. Fig. 9's synthetic foot, 56,258 samples in the
foot's frame with their tractions under body weight). No simulation of the
foot runs 10,000 steps in reasonable time, so the motion is made up: the
foot, a point cloud, rocks about x by 0.02 sin(2 pi t) rad over 10 s of
1 ms rows, and each row's contact is Fig. 9's 1,451 loaded samples carried
with it (their points turned with the foot, their tractions as solved). It
is a load for the viewer, not a result: the frame's work is that of a real
run of this size (the same shape, the same count of samples per frame).
Written as a quasi-rigid simulate run with "output": {"samples": "binary"}
writes it: summary.json, shapes.json (the foot's points and a ground
square), bodies.csv and samples.bin (validation/app/samples_file.hpp).
"""
import argparse
import json
from pathlib import Path

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("foot_csv", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--rows", type=int, default=10000)
    args = parser.parse_args()
    foot = np.loadtxt(args.foot_csv, delimiter=",", skiprows=1)  # x, y, z, u, p
    points, traction = foot[:, :3], foot[:, 4]
    (args.out / "shapes").mkdir(parents=True, exist_ok=True)
    with open(args.out / "shapes" / "foot.ply", "w") as ply:
        ply.write(f"ply\nformat ascii 1.0\nelement vertex {len(points)}\nproperty double x\nproperty double y\n"
                  "property double z\nend_header\n")
        np.savetxt(ply, points, fmt="%.9g")
    (args.out / "shapes" / "ground.ply").write_text(
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty double x\nproperty double y\nproperty double z\n"
        "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
        "-0.05 -0.1 0\n0.3 -0.1 0\n0.3 0.1 0\n-0.05 0.1 0\n3 0 1 2\n3 0 2 3\n")
    identity = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    (args.out / "shapes.json").write_text(json.dumps({"bodies": [
        {"name": "ground", "geometry": "plane", "fixed": True, "pose_w_b": identity, "file": "shapes/ground.ply"},
        {"name": "foot", "geometry": "points", "fixed": False, "file": "shapes/foot.ply"}]}, indent=2))
    (args.out / "summary.json").write_text(json.dumps({
        "status": "completed", "message": "made up by benchmarks/viewer/foot_run.py: a load for the viewer",
        "model": {"type": "quasi-rigid"},
        "files": {"bodies": "bodies.csv", "samples": "samples.bin", "shapes": "shapes.json"}}, indent=2))

    loaded = traction > 0
    foot_points, foot_traction = points[loaded], traction[loaded].astype(np.float32)
    times = np.arange(args.rows) * 1e-3
    angles = 0.02 * np.sin(2 * np.pi * times)
    with open(args.out / "bodies.csv", "w") as bodies:
        bodies.write("time,body,x,y,z,qw,qx,qy,qz\n")
        for t, a in zip(times, angles):
            bodies.write(f"{t!r},foot,0,0,0,{np.cos(a / 2)!r},{np.sin(a / 2)!r},0,0\n")
    with open(args.out / "samples.bin", "wb") as samples:
        samples.write(b"CRSMPL01")
        record = np.empty((len(foot_points), 4), dtype="<f4")
        for t, a in zip(times, angles):
            c, s = np.cos(a), np.sin(a)
            record[:, 0] = foot_points[:, 0]
            record[:, 1] = c * foot_points[:, 1] - s * foot_points[:, 2]
            record[:, 2] = s * foot_points[:, 1] + c * foot_points[:, 2]
            record[:, 3] = foot_traction
            samples.write(np.array([t], dtype="<f8").tobytes() + np.array([len(record)], dtype="<u4").tobytes())
            samples.write(record.tobytes())
    print(f"foot_run: {len(points)} foot samples, {len(foot_points)} loaded, {args.rows} rows into {args.out}")


if __name__ == "__main__":
    main()
