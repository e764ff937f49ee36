"""Figure rattleback-top-view: the tap start and the spin start of Kry's
rattleback seen from above, the rim of every second's pose drawn over the
earlier ones in grey (as the thesis's Figs. 6.6-6.7 and Kry & Pai's Fig. 11
ghost previous positions); the latest pose in colour.

Usage: rattleback_top_view.py DATA_DIR NAME  (reads outline.csv written by
`contactref figures`; writes NAME.png and NAME.pdf).
"""
import csv
from collections import defaultdict
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    poses = defaultdict(lambda: defaultdict(list))
    with open(data_dir / "outline.csv", newline="") as file:
        for row in csv.DictReader(file):
            poses[row["run"]][float(row["t"])].append((float(row["x"]), float(row["y"])))
    fig, axes = plt.subplots(1, len(poses), figsize=(6 * len(poses), 5.5))
    for ax, (run, by_time) in zip(np.atleast_1d(axes), poses.items()):
        times = sorted(by_time)
        for k, t in enumerate(times):
            xy = np.array(by_time[t])
            last = k == len(times) - 1
            grey = str(0.55 + 0.4 * (1 - k / len(times)))  # older poses lighter
            ax.plot(xy[:, 0], xy[:, 1], "-", color="C3" if last else grey, lw=1.2 if last else 0.5)
        ax.set_aspect("equal")
        ax.set_title(f"{run}: rim every 1 s, 0 to {times[-1]:.0f} s")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
