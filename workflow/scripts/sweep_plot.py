"""The figure of a sweep: plot.y against plot.x from its table, one line per
combination of the other set paths (those with more than one value);
points whose run failed are marked.

    sweep_plot.py TABLE.csv --plot '{"x": ..., "y": ..., "xscale": ..., "yscale": ...}'
                  --set-paths '["model.mu", ...]' --title NAME --out FIGURE.png

x may be numbers or names (a categorical axis in the order of the table);
y must be numbers wherever the run gave one.
"""
import argparse
import csv
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only; no display on a cluster node or in CI
import matplotlib.pyplot as plt  # noqa: E402


def number(text: str):
    try:
        return float(text)
    except ValueError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", type=Path)
    parser.add_argument("--plot", required=True)
    parser.add_argument("--set-paths", required=True)
    parser.add_argument("--title", required=True)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    plot = json.loads(args.plot)
    with args.table.open(newline="") as file:
        rows = list(csv.DictReader(file))
    # The lines: one per combination of the other paths that take several values.
    others = [p for p in json.loads(args.set_paths)
              if p != plot["x"] and len({row.get(p) for row in rows}) > 1]
    for column in (plot["x"], plot["y"]):
        if rows and column not in rows[0]:
            print(f"sweep_plot: {args.table} has no column {column}", file=sys.stderr)
            return 1

    xs = [row[plot["x"]] for row in rows]
    numeric_x = all(number(x) is not None for x in xs)
    categories = list(dict.fromkeys(xs))
    position = (lambda x: number(x)) if numeric_x else (lambda x: float(categories.index(x)))

    bad = [row["point"] for row in rows if row[plot["y"]] != "" and number(row[plot["y"]]) is None]
    if bad:
        print(f"sweep_plot: {plot['y']} is not a number at {', '.join(bad)} ({args.table})", file=sys.stderr)
        return 1

    figure, axes = plt.subplots(figsize=(6.4, 4.4))
    series = {}
    for row in rows:
        series.setdefault(tuple(row[p] for p in others), []).append(row)
    missing = []
    for key, members in series.items():
        label = ", ".join(f"{p} = {v}" for p, v in zip(others, key)) or None
        # A failed run's numbers are where it stopped, not a result: marked, never joined.
        done = sorted((position(r[plot["x"]]), number(r[plot["y"]])) for r in members
                      if r["exit_code"] == "0" and r[plot["y"]] != "")
        if done:
            axes.plot([p[0] for p in done], [p[1] for p in done], marker="o", label=label)
        failed = [(position(r[plot["x"]]), number(r[plot["y"]])) for r in members
                  if r["exit_code"] != "0" and r[plot["y"]] != ""]
        if failed:
            axes.plot([p[0] for p in failed], [p[1] for p in failed], linestyle="none", marker="x",
                      markersize=10, color="red")
        missing += [r["point"] for r in members if r[plot["y"]] == ""]
    if any(r["exit_code"] != "0" for r in rows):
        axes.plot([], [], linestyle="none", marker="x", color="red", label="run failed (status in the table)")
    if not numeric_x:
        axes.set_xticks(range(len(categories)), categories)
    axes.set_xscale(plot["xscale"] if numeric_x else "linear")
    axes.set_yscale(plot["yscale"])
    axes.set_xlabel(plot["x"])
    axes.set_ylabel(plot["y"])
    title = f"sweep {args.title}"
    if missing:
        title += f"\nno {plot['y']} at {', '.join(missing)} (failed runs)"
    axes.set_title(title, fontsize=10)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize=8)
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    figure.savefig(args.out, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
