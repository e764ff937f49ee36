"""Figure bowl-on-table-fig-7: Kry & Pai Fig. 7 redrawn.

The planar (x, y) path of the bowl's centre of mass over the table's top for
maximum steps of 1 ms (solid red), 16 ms (dotted green) and 64 ms (dashed
blue), as in the paper, with markers: collisions (x), patch transitions
(dots), friction mode switches (squares), continuous contact re-established
(down-pointing triangles, as the paper's) and lost (up-pointing triangles).
The table's top is drawn in grey.

Usage: bowl_on_table_fig_7.py DATA_DIR NAME  (reads paths.csv, events.csv and
top.csv written by `contactref figures`; writes NAME.png and NAME.pdf).
"""
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.lines import Line2D

# The paper's: solid red, dotted green, dashed blue; drawn widest first.
STYLES = {0.001: ("C3", "-", 2.6), 0.016: ("C2", ":", 2.0), 0.064: ("C0", "--", 1.0)}
MARKERS = {
    "collision": ("x", 40, "collision"),
    "transition": (".", 25, "patch transition"),
    "mode-switch": ("s", 18, "friction mode switch"),
    "contact": ("v", 60, "contact re-established"),
    "separation": ("^", 60, "contact lost"),
    "forced-separation": ("^", 60, "contact lost"),
}


def main(data_dir: Path, name: str) -> None:
    paths = np.genfromtxt(data_dir / "paths.csv", delimiter=",", names=True)
    events = np.genfromtxt(data_dir / "events.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    top = np.genfromtxt(data_dir / "top.csv", delimiter=",", names=True)
    top_xy = np.stack([top["x"], top["y"]], axis=1).reshape(-1, 3, 2)  # the top's triangles, seen from above

    fig, (ax, zoom) = plt.subplots(1, 2, figsize=(12, 5.6))
    for axis in (ax, zoom):
        axis.add_collection(PolyCollection(top_xy, facecolors="0.9", edgecolors="0.8", linewidths=0.3))
        for h, (colour, style, width) in STYLES.items():
            mine = paths[paths["h"] == h]
            axis.plot(mine["com_x"], mine["com_y"], color=colour, ls=style, lw=width)
            for kind, (marker, size, _label) in MARKERS.items():
                rows = events[(events["h"] == h) & (events["kind"] == kind)]
                if len(rows) > 0:
                    axis.scatter(rows["com_x"], rows["com_y"], marker=marker, s=size, lw=0.8,
                                 color=colour, facecolors="none" if marker in "sv^" else colour)
        axis.set_aspect("equal")
        axis.set_xlabel("x (m)")
        axis.set_ylabel("y (m)")
    handles = [Line2D([], [], color=c, ls=s, lw=w, label=f"h_max = {h * 1e3:g} ms") for h, (c, s, w) in STYLES.items()]
    shown = set(events["kind"])
    for kind, (marker, size, label) in MARKERS.items():
        if kind in shown and label not in [h.get_label() for h in handles]:
            handles.append(Line2D([], [], color="k", marker=marker, ls="none", mfc="none" if marker in "sv^" else "k",
                                  label=label))
    ax.set_xlim(-0.22, 0.22)
    ax.set_ylim(-0.22, 0.22)
    ax.set_title("centre of mass over the table's top")
    ax.legend(handles=handles, fontsize=7, loc="upper left")
    landed = paths[paths["flight"] == 0]
    pad = 0.01
    zoom.set_xlim(landed["com_x"].min() - pad, landed["com_x"].max() + pad)
    zoom.set_ylim(landed["com_y"].min() - pad, landed["com_y"].max() + pad)
    zoom.set_title("in contact (magnified)")
    fig.suptitle("Kry & Pai Fig. 7 redrawn: planar position of the bowl's centre of mass")
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
