"""Figure loop-bowl: Kry's App. B.2 bowl as a Loop limit surface (thesis Fig.
4.3 left, coarse patches as in Kry & Pai), with the patch boundaries drawn and
the extraordinary vertices (valence 4) marked.

Usage: loop_bowl.py DATA_DIR NAME  (reads surface.csv, boundaries.csv,
vertices.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np
from mpl_toolkits.mplot3d.art3d import Poly3DCollection


def main(data_dir: Path, name: str) -> None:
    surface = np.genfromtxt(data_dir / "surface.csv", delimiter=",", names=True)
    bounds = np.genfromtxt(data_dir / "boundaries.csv", delimiter=",", names=True)
    verts = np.genfromtxt(data_dir / "vertices.csv", delimiter=",", names=True)

    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d")
    triangles = []
    for face in np.unique(surface["face"]):
        rows = surface[surface["face"] == face]
        index = {(int(r["i"]), int(r["j"])): (r["x"], r["y"], r["z"]) for r in rows}
        n = int(max(r["i"] for r in rows))
        for i in range(n):
            for j in range(n - i):
                triangles.append([index[(i, j)], index[(i + 1, j)], index[(i, j + 1)]])
                if i + j < n - 1:
                    triangles.append([index[(i + 1, j)], index[(i + 1, j + 1)], index[(i, j + 1)]])
    mesh = Poly3DCollection(triangles, facecolor=(0.75, 0.8, 0.9), edgecolor="none", alpha=0.35)
    ax.add_collection3d(mesh)
    for face in np.unique(bounds["face"]):
        for edge in range(3):
            rows = bounds[(bounds["face"] == face) & (bounds["edge"] == edge)]
            ax.plot(rows["x"], rows["y"], rows["z"], color="k", lw=0.8)
    ev = verts[verts["valence"] != 6]
    ax.scatter(ev["x"], ev["y"], ev["z"], color="crimson", s=30, depthshade=False, label="extraordinary (valence 4)")
    lo, hi = min(surface["x"].min(), surface["y"].min()), max(surface["x"].max(), surface["y"].max())
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_zlim(surface["z"].min(), surface["z"].min() + (hi - lo))
    ax.view_init(elev=55, azim=-60)
    ax.set_title("App. B.2 bowl: Loop limit surface, 14 patches")
    ax.legend(loc="upper left", fontsize=8)
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
