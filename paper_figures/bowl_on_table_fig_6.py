"""Figure bowl-on-table-fig-6: Kry & Pai Fig. 6 redrawn.

The bowl thrown on the table, three columns of six frames half a second apart
(t = 0, 0.5, ..., 2.5 s: the first integrator state at or after each), for
maximum steps of 1, 16 and 64 ms. Each frame is a side view (the x-z plane,
seen from -y) of the bowl's Loop limit surface at that state's pose over the
table's, both drawn as their triangles shaded by the normal's tilt, the
bowl's cavity in orange so that its opening shows which way up it is.

Usage: bowl_on_table_fig_6.py DATA_DIR NAME  (reads bowl.csv, table.csv,
cavity.csv and frames.csv written by `contactref figures`; writes NAME.png and
NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PolyCollection


def triangles(path: Path):
    """The triangles (n x 3 x 3) and the patch of each."""
    xyz = np.genfromtxt(path, delimiter=",", names=True)
    tris = np.stack([xyz["x"], xyz["y"], xyz["z"]], axis=1).reshape(-1, 3, 3)
    return tris, xyz["patch"].reshape(-1, 3)[:, 0].astype(int)


def side_view(ax, tris: np.ndarray, colours: np.ndarray) -> None:
    """Draws triangles projected on x-z, far ones (large y) first, shaded by
    the normal's component towards the viewer and upwards."""
    normal = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-30)
    light = np.clip(0.35 + 0.65 * np.abs(normal @ np.array([0.3, -0.6, 0.75])), 0, 1)
    order = np.argsort(-tris[:, :, 1].mean(axis=1))
    faces = [tris[k][:, [0, 2]] for k in order]
    shades = [tuple(colours[k] * light[k]) for k in order]
    ax.add_collection(PolyCollection(faces, facecolors=shades, edgecolors="none"))


def main(data_dir: Path, name: str) -> None:
    bowl, bowl_patch = triangles(data_dir / "bowl.csv")
    table, _ = triangles(data_dir / "table.csv")
    cavity = np.atleast_1d(np.genfromtxt(data_dir / "cavity.csv", delimiter=",", names=True)["patch"]).astype(int)
    bowl_colours = np.where(np.isin(bowl_patch, cavity)[:, None], [0.95, 0.6, 0.3], [0.55, 0.7, 0.95])
    table_colours = np.tile([0.75, 0.62, 0.45], (len(table), 1))
    frames = np.genfromtxt(data_dir / "frames.csv", delimiter=",", names=True)
    steps = sorted(set(frames["h"]))
    fig, axes = plt.subplots(6, len(steps), figsize=(3.2 * len(steps), 10.5), sharex=True, sharey=True)
    for column, h in enumerate(steps):
        rows = frames[frames["h"] == h]
        for k, row in enumerate(rows):
            ax = axes[k, column]
            side_view(ax, table, table_colours)
            R = np.array([[row[f"r{i}{j}"] for j in range(3)] for i in range(3)])
            com = np.array([row["com_x"], row["com_y"], row["com_z"]])
            side_view(ax, bowl @ R.T + com, bowl_colours)
            ax.set_aspect("equal")
            ax.set_xlim(-0.25, 0.25)
            ax.set_ylim(-0.06, 0.2)
            ax.text(0.02, 0.9, f"t = {row['t']:.2f} s", transform=ax.transAxes, fontsize=8)
            if k == 0:
                ax.set_title(f"h_max = {h * 1e3:g} ms", fontsize=10)
            if k == 5:
                ax.set_xlabel("x (m)")
            if column == 0:
                ax.set_ylabel("z (m)")
    fig.suptitle("Kry & Pai Fig. 6 redrawn: the bowl thrown on the table (side view, frames 0.5 s apart)")
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
