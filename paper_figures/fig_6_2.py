"""Figure fig-6-2: Kry's thesis Fig. 6.2 regenerated.

The App. B.2 bowl rocking and spinning on a frictionless Bezier plane: the
world position of its centre of mass against time (z solid, x and y dotted, as
in the thesis), with every patch transition marked. The thesis saw x and y
start to move at the first S-patch transition; here they stay on the
centre's vertical line (right panel: the horizontal drift, magnified).

Usage: fig_6_2.py DATA_DIR NAME  (reads com.csv and transitions.csv written by
`contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    com = np.genfromtxt(data_dir / "com.csv", delimiter=",", names=True)
    transitions = np.genfromtxt(data_dir / "transitions.csv", delimiter=",", names=True, ndmin=1)

    fig, (ax, ax_drift) = plt.subplots(1, 2, figsize=(11, 4.2))
    t = com["t"]
    ax.plot(t, com["com_z"], "k-", label="z")
    ax.plot(t, com["com_x"], "k:", label="x")
    ax.plot(t, com["com_y"], "k--", lw=0.8, label="y")
    for k, tt in enumerate(transitions["t"]):
        ax.axvline(tt, color="C3", lw=0.5, alpha=0.5, label="patch transition" if k == 0 else None)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("centre of mass, world (m)")
    ax.set_title("thesis Fig. 6.2 regenerated (h_max = 1 ms)")
    ax.legend(fontsize=8)

    drift = np.hypot(com["com_x"] - com["com_x"][0], com["com_y"] - com["com_y"][0])
    ax_drift.semilogy(t, np.maximum(drift, 1e-18), "C0-")
    for tt in transitions["t"]:
        ax_drift.axvline(tt, color="C3", lw=0.5, alpha=0.5)
    ax_drift.set_xlabel("time (s)")
    ax_drift.set_ylabel(r"horizontal drift $|com_{xy}(t) - com_{xy}(0)|$ (m)")
    ax_drift.set_title("horizontal drift of the centre of mass")
    ax_drift.grid(True, which="both", alpha=0.3)

    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
