"""Figures brep-fig-3, brep-fig-5, brep-fig-8: Bouma & Vanecek's contact
configurations with their contact regions and normals.

Left: the two solids (A grey, B blue, as wireframes) and every region of the
intersection set I (0D points, 1D segments, 2D polygons); the needed regions
(R, Eqs. 3-4) in red, the others in light orange. Right: the needed regions
alone with their contact normals (arrows from each region's centroid, from A
to B); where the data has two variants (brep-fig-8: the local normals and the
normals with temporal coherence, Eq. 7) both are drawn, local dashed.

Usage: brep_contact.py DATA_DIR NAME  (reads solids.csv, regions.csv and
normals.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np
from mpl_toolkits.mplot3d.art3d import Poly3DCollection

TITLES = {
    "brep-fig-3": "a block on a floor against a ramp: 2D and 1D regions needed",
    "brep-fig-5": "Fig. 5: tetrahedron in a corner (alpha > beta): 2D, 1D and 0D regions",
    "brep-fig-8": "Fig. 8: block reaching a finger: local vs coherent normal",
}


def groups(table, key):
    out = {}
    for row in np.atleast_1d(table):
        out.setdefault(tuple(row[k] for k in key), []).append(row)
    return out


def draw_solids(ax, solids):
    for (solid, _face), rows in groups(solids, ("solid", "face")).items():
        rows = sorted(rows, key=lambda r: r["corner"])
        xyz = np.array([[r["x"], r["y"], r["z"]] for r in rows] + [[rows[0]["x"], rows[0]["y"], rows[0]["z"]]])
        colour = "0.55" if solid == "a" else "C0"
        ax.plot(xyz[:, 0], xyz[:, 1], xyz[:, 2], color=colour, lw=0.6, alpha=0.7)


def draw_regions(ax, regions, only_needed):
    for (_region,), rows in groups(regions, ("region",)).items():
        rows = sorted(rows, key=lambda r: r["corner"])
        needed = rows[0]["needed"] == 1
        if only_needed and not needed:
            continue
        colour = "C3" if needed else "orange"
        xyz = np.array([[r["x"], r["y"], r["z"]] for r in rows])
        dimension = rows[0]["dimension"]
        if dimension == 0:
            ax.scatter(*xyz.T, color=colour, s=30 if needed else 14, depthshade=False)
        elif dimension == 1:
            ax.plot(*xyz.T, color=colour, lw=3 if needed else 1.5)
        else:
            ax.add_collection3d(Poly3DCollection([xyz], facecolor=colour, alpha=0.5 if needed else 0.25, edgecolor=colour))


def draw_normals(ax, normals, scale):
    for row in np.atleast_1d(normals):
        local = row["variant"] == "local"
        ax.quiver(row["x"], row["y"], row["z"], row["nx"], row["ny"], row["nz"], length=scale,
                  color="k" if not local else "C2", linestyle="--" if local and len(set(np.atleast_1d(normals)["variant"])) > 1 else "-",
                  arrow_length_ratio=0.2)


def main(data_dir: Path, name: str) -> None:
    solids = np.genfromtxt(data_dir / "solids.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    regions = np.genfromtxt(data_dir / "regions.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    normals = np.genfromtxt(data_dir / "normals.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    span = max(np.ptp(solids["x"]), np.ptp(solids["y"]), np.ptp(solids["z"]))

    fig = plt.figure(figsize=(12, 5.2))
    for k, only_needed in enumerate((False, True)):
        ax = fig.add_subplot(1, 2, k + 1, projection="3d")
        draw_solids(ax, solids)
        draw_regions(ax, regions, only_needed)
        if only_needed:
            draw_normals(ax, normals, 0.25 * span)
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.set_zlabel("z (m)")
        ax.view_init(elev=24, azim=-58)
        ax.set_title("intersection set I (red: needed)" if not only_needed else "needed regions and normals")
    fig.suptitle(TITLES.get(name, name))
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
