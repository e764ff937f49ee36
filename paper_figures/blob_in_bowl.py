"""Figure blob-in-bowl: thesis Fig. 6.3 redrawn. A lumpy Loop marble
released in a shallow Loop dish slides, then rolls, and slides again where
the far side is too steep for its friction to roll on.

Left: the path of its centre of mass seen from above, coloured by friction
mode, inside the dish's rim. Middle: the same against time (x) with the
height. Right: energy, the law's work and the slip speed against time.

Usage: blob_in_bowl.py DATA_DIR NAME  (reads path.csv and rim.csv written by
`contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np

COLOURS = {"sliding": "C3", "no-slip": "C0", "no-spin": "C2", "frictionless": "C7"}


def main(data_dir: Path, name: str) -> None:
    path = np.genfromtxt(data_dir / "path.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    rim = np.genfromtxt(data_dir / "rim.csv", delimiter=",", names=True)
    modes = path["mode"]

    fig, (ax_p, ax_t, ax_e) = plt.subplots(1, 3, figsize=(16, 4.6))
    ax_p.plot(rim["x"], rim["y"], "k-", lw=0.8, label="dish rim")
    for mode, colour in COLOURS.items():
        rows = modes == mode
        if rows.any():
            ax_p.scatter(path["com_x"][rows], path["com_y"][rows], s=2, c=colour, label=mode)
            ax_t.scatter(path["t"][rows], path["com_x"][rows], s=2, c=colour, label=mode)
    ax_p.set_aspect("equal")
    ax_p.set_xlabel("x (m)")
    ax_p.set_ylabel("y (m)")
    ax_p.set_title("centre of mass from above, by mode")
    ax_p.legend(fontsize=8, markerscale=4)
    ax_t.set_xlabel("time (s)")
    ax_t.set_ylabel("x (m)")
    ax_t.set_title("to and fro across the dish")
    ax_t.grid(True, alpha=0.3)

    ax_e.plot(path["t"], (path["energy"] - path["energy"][0]) * 1e3, "k-", lw=0.8, label="E - E0 (mJ)")
    ax_e.plot(path["t"], path["work"] * 1e3, "C3--", lw=0.8, label="friction's work (mJ)")
    ax_s = ax_e.twinx()
    ax_s.plot(path["t"], path["slip_speed"], "C1-", lw=0.5, alpha=0.6)
    ax_s.set_ylabel("slip speed (m/s)", color="C1")
    ax_e.set_xlabel("time (s)")
    ax_e.set_title("energy falls while sliding, holds while rolling")
    ax_e.legend(fontsize=8, loc="lower left")
    ax_e.grid(True, alpha=0.3)
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
