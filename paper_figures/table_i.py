"""Figure table-i: Kry & Pai Table I (thesis Table 6.1), the time to compute
the ten sets of partial derivatives per surface type, measured here (median of
the Table I benchmarks) beside the paper's times (350 MHz Pentium II, Java).

Usage: table_i.py DATA_DIR NAME  (reads paper.csv and bench_*.json written by
`contactref figures`; writes NAME.png, NAME.pdf and NAME.csv).
"""
import csv
import json
from pathlib import Path

import figure_io
import matplotlib.pyplot as plt

ROWS = {  # benchmark name -> Table I row
    "BM_TableI_LoopRegular": "Loop regular",
    "BM_TableI_LoopExtraordinary/3": "Loop extraordinary (3)",
    "BM_TableI_LoopExtraordinary/5": "Loop extraordinary (5)",
    "BM_TableI_LoopExtraordinary/7": "Loop extraordinary (7)",
    "BM_TableI_LoopExtraordinary/10": "Loop extraordinary (10)",
    "BM_TableI_SPatch/3": "S-patch (3 sides)",
    "BM_TableI_SPatch/4": "S-patch (4 sides)",
    "BM_TableI_SPatch/5": "S-patch (5 sides)",
    "BM_TableI_SPatch/10": "S-patch (10 sides)",
    "BM_TableI_BicubicBezier": "Bi-cubic Bezier",
}
UNIT_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def measured(data_dir: Path) -> dict:
    out = {}
    for path in sorted(data_dir.glob("bench_*.json")):
        for b in json.loads(path.read_text())["benchmarks"]:
            if b.get("aggregate_name") != "median":
                continue
            row = ROWS.get(b["run_name"])
            if row:
                out[row] = b["real_time"] * UNIT_TO_MS[b["time_unit"]]
    return out


def main(data_dir: Path, name: str) -> None:
    with open(data_dir / "paper.csv") as f:
        paper = {r["row"]: float(r["paper_ms"]) for r in csv.DictReader(f)}
    ours = measured(data_dir)
    rows = list(paper)
    with open(data_dir / f"{name}.csv", "w") as f:
        f.write("row,paper_ms,measured_ms,speed_up\n")
        for r in rows:
            m = ours.get(r)
            f.write(f"{r},{paper[r]},{'' if m is None else f'{m:.6g}'},{'' if m is None else f'{paper[r] / m:.4g}'}\n")

    fig, ax = plt.subplots(figsize=(9, 4.8))
    y = range(len(rows))
    ax.barh([i + 0.2 for i in y], [paper[r] for r in rows], height=0.4, label="Kry & Pai Table I (350 MHz PII, Java)")
    ax.barh([i - 0.2 for i in y], [ours.get(r, float("nan")) for r in rows], height=0.4, label="contactref (this machine)")
    for i, r in enumerate(rows):
        if r in ours:
            ax.text(ours[r] * 1.15, i - 0.2, f"{ours[r] * 1e3:.3g} us", va="center", fontsize=7)
        else:
            ax.text(1e-5, i - 0.2, "not measured", va="center", fontsize=7, color="gray")
    ax.set_yticks(list(y))
    ax.set_yticklabels(rows, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("time to compute the ten derivative sets (ms)")
    ax.set_title("Table I: surface evaluation with derivatives to third order")
    ax.legend(fontsize=8, loc="lower right")
    figure_io.save(fig, data_dir, name)


if __name__ == "__main__":
    figure_io.run(main, __doc__)
