"""Figure bowl-on-table-fig-8: Kry & Pai Fig. 8 redrawn.

Histograms of the steps accepted while in contact for maximum steps of 16 ms
and 64 ms (logarithmic bins; steps shortened to a located event, a patch or
piece crossing or a mode switch, fall below the doubling ladder from the
1 ms minimum step to h_max).

Usage: bowl_on_table_fig_8.py DATA_DIR NAME  (reads steps.csv written by
`contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    steps = np.genfromtxt(data_dir / "steps.csv", delimiter=",", names=True)
    sizes = sorted(set(steps["h"]))
    fig, axes = plt.subplots(1, len(sizes), figsize=(5.5 * len(sizes), 4.2))
    for ax, h in zip(np.atleast_1d(axes), sizes):
        mine = steps[steps["h"] == h]["step"] * 1e3  # ms
        floor = 1e-3  # ms: shorter steps are counted in the first bin
        bins = np.logspace(np.log10(floor), np.log10(h * 1e3 * 1.5), 40)
        ax.hist(np.clip(mine, floor, None), bins=bins, color="C0", edgecolor="white")
        for ladder in 2.0 ** np.arange(0, int(np.log2(h * 1e3)) + 1):
            ax.axvline(ladder, color="0.6", lw=0.5, ls=":")
        ax.set_xscale("log")
        ax.set_xlabel("accepted step in contact (ms)")
        ax.set_ylabel("steps")
        ax.set_title(f"h_max = {h * 1e3:g} ms: {len(mine)} steps, {np.mean(mine >= h * 1e3 * 0.999):.0%} at h_max")
    fig.suptitle("Kry & Pai Fig. 8 redrawn: steps accepted in contact (dotted: 1, 2, 4, ... ms)")
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
