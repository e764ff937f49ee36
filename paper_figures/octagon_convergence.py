"""Figure octagon-convergence: Bouchard et al. Figs. 15-16 regenerated. The
2-norm of each projected block Gauss-Seidel sweep's update vector (N s)
against the sweep, solved from zero impulses, for one 6D contact per pair
(black, as in the paper) and for the point contacts (blue): left, the
octagonal block sliding on a plane (Fig. 16); right, the stack of five cubes
in resting contact (Fig. 15's stack). The dashed line is the stopping
criterion, 1e-15.

Usage: octagon_convergence.py DATA_DIR NAME  (reads residuals.csv written by
`contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    rows = np.genfromtxt(data_dir / "residuals.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4))
    titles = {"octagon": "sliding octagon (Fig. 16)", "stack": "stack of five cubes (Fig. 15)"}
    for ax, scene in zip(axes, ["octagon", "stack"]):
        for model, colour, label in [("6d", "k", "6D contact"), ("point", "C0", "point contacts")]:
            pick = (rows["scene"] == scene) & (rows["model"] == model)
            sweeps, update = rows["sweep"][pick], rows["update"][pick]
            # An update of exactly 0 (the 6D block solved in one sweep) is drawn at the axis' floor.
            ax.semilogy(sweeps, np.maximum(update, 1e-17), "-o" if len(sweeps) < 20 else "-", color=colour,
                        ms=3, lw=1.2, label=f"{label}: {len(sweeps)} sweeps")
        ax.axhline(1e-15, color="grey", ls="--", lw=0.8, label="stopping criterion 1e-15")
        ax.set_ylim(1e-17, 1)
        ax.set_xscale("log")
        ax.set_xlabel("sweep")
        ax.set_ylabel("2-norm of the update vector (N s)")
        ax.set_title(titles[scene])
        ax.legend(fontsize=8)
    fig.tight_layout()
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
