"""Figure foot-tractions: Pauly et al. Fig. 9 regenerated on the synthetic foot.

(a) the samplings of the hierarchy's levels, seen from below; (b) the
undeformed foot over the ground, from the side; (c) the deformed sole, the
displacement magnified, coloured by it (red: pressed in, blue: the bulge);
(d) the normal tractions on the foot and (e) on the ground, from below, blue
zero to red maximum as in the paper; (f) the 37 x 13 pressure mat (7.18 mm
cells) that stands for the paper's measured X2 FootSensor map.

Usage: foot_tractions.py DATA_DIR NAME  (reads levels.csv, foot.csv,
ground.csv and mat.csv written by `contactref figures`; writes NAME.png and
NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    levels = np.genfromtxt(data_dir / "levels.csv", delimiter=",", names=True)
    foot = np.genfromtxt(data_dir / "foot.csv", delimiter=",", names=True)
    ground = np.genfromtxt(data_dir / "ground.csv", delimiter=",", names=True)
    mat = np.genfromtxt(data_dir / "mat.csv", delimiter=",", names=True)

    fig = plt.figure(figsize=(15, 9))
    mm = 1e3
    sole = foot["z"] < 0.012

    level_ids = np.unique(levels["level"]).astype(int)
    for k, level in enumerate(level_ids):
        ax = fig.add_subplot(3, 6, 1 + k)
        rows = levels[(levels["level"] == level) & (levels["z"] < 0.012)]
        ax.scatter(rows["x"] * mm, rows["y"] * mm, s=0.3 if len(rows) > 5000 else 2, c="k")
        ax.set_aspect("equal")
        ax.set_title(f"(a) level {level}: {int(np.sum(levels['level'] == level))} samples", fontsize=8)
        ax.tick_params(labelsize=6)

    ax = fig.add_subplot(3, 2, 2)
    side = foot["y"] > -0.005
    ax.scatter(foot["x"][side] * mm, foot["z"][side] * mm, s=0.2, c="0.5")
    ax.axhline(0, color="k", lw=2)
    ax.set_aspect("equal")
    ax.set_title("(b) undeformed foot over the ground (side, x-z, mm)", fontsize=9)

    magnify = 5.0
    ax = fig.add_subplot(3, 2, 3)
    u = foot["u"][sole]
    limit = np.max(np.abs(u)) or 1.0
    z_deformed = foot["z"][sole] + magnify * u  # inward on the sole is up
    sc = ax.scatter(foot["x"][sole] * mm, z_deformed * mm, s=0.5, c=u * mm, cmap="coolwarm", vmin=-limit * mm,
                    vmax=limit * mm)
    ax.axhline(0, color="k", lw=1)
    fig.colorbar(sc, ax=ax, label="u (mm, inward)")
    ax.set_title(f"(c) deformed sole, displacement x{magnify:g} (side)", fontsize=9)

    ax = fig.add_subplot(3, 2, 4)
    p = foot["p"][sole]
    order = np.argsort(p)
    sc = ax.scatter(foot["x"][sole][order] * mm, foot["y"][sole][order] * mm, s=0.5, c=p[order] / 1e3, cmap="jet")
    ax.set_aspect("equal")
    fig.colorbar(sc, ax=ax, label="p (kPa)")
    ax.set_title("(d) normal tractions on the foot (from below)", fontsize=9)

    ax = fig.add_subplot(3, 2, 5)
    order = np.argsort(ground["p"])
    sc = ax.scatter(ground["x"][order] * mm, ground["y"][order] * mm, s=0.5, c=ground["p"][order] / 1e3, cmap="jet")
    ax.set_aspect("equal")
    fig.colorbar(sc, ax=ax, label="p (kPa)")
    ax.set_title("(e) normal tractions on the ground", fontsize=9)

    ax = fig.add_subplot(3, 2, 6)
    along = int(mat["along"].max()) + 1
    across = int(mat["across"].max()) + 1
    grid = np.zeros((across, along))
    grid[mat["across"].astype(int), mat["along"].astype(int)] = mat["pressure"] / 1e3
    cell = (mat["x"].max() - mat["x"].min()) / (along - 1) * mm
    extent = (mat["x"].min() * mm - cell / 2, mat["x"].max() * mm + cell / 2,
              mat["y"].min() * mm - cell / 2, mat["y"].max() * mm + cell / 2)
    im = ax.imshow(grid, origin="lower", extent=extent, cmap="jet", interpolation="nearest")
    fig.colorbar(im, ax=ax, label="p (kPa)")
    ax.set_title(f"(f) pressure mat, {along} x {across} cells of {cell:.2f} mm", fontsize=9)

    for ax in fig.axes:
        if ax.get_label() != "<colorbar>":
            ax.tick_params(labelsize=7)
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
