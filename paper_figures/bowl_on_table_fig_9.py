"""Figure bowl-on-table-fig-9: Kry & Pai Fig. 9 redrawn.

The x position of the bowl's centre of mass over the first second at a 64 ms
maximum step: every integrator state a dot (flight grey, contact blue), joined
by straight lines (the paper interpolates linearly or by Hermite for
display); patch transitions are dotted vertical lines, continuous contact
re-established or lost solid red ones, collisions thin grey ones.

Usage: bowl_on_table_fig_9.py DATA_DIR NAME  (reads com.csv and events.csv
written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np


def main(data_dir: Path, name: str) -> None:
    com = np.genfromtxt(data_dir / "com.csv", delimiter=",", names=True)
    events = np.genfromtxt(data_dir / "events.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    fig, ax = plt.subplots(figsize=(10, 4.5))
    ax.plot(com["t"], com["com_x"], color="0.4", lw=0.8)
    flight = com["flight"] == 1
    ax.plot(com["t"][flight], com["com_x"][flight], ".", color="0.55", ms=3, label="state in flight")
    ax.plot(com["t"][~flight], com["com_x"][~flight], ".", color="C0", ms=4, label="state in contact")
    seen = set()
    for row in np.atleast_1d(events):
        kind = row["kind"]
        if kind == "transition":
            style, label = dict(color="k", ls=":", lw=0.8), "patch transition"
        elif kind in ("contact", "separation", "forced-separation"):
            style, label = dict(color="C3", ls="-", lw=1.2), "contact re-established / lost"
        elif kind == "collision":
            style, label = dict(color="0.7", ls="-", lw=0.6), "collision"
        else:
            continue
        ax.axvline(row["t"], label=label if label not in seen else None, **style)
        seen.add(label)
    ax.set_xlim(0, 1)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("centre of mass x (m)")
    ax.legend(fontsize=8)
    ax.set_title("Kry & Pai Fig. 9 redrawn: centre of mass x, first second, h_max = 64 ms")
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
