"""Prints line and branch coverage per top-level folder (and per reference/
module) from a gcovr --json-summary file. Usage: coverage_by_folder.py FILE"""
import json
import sys
from collections import defaultdict


def folder_of(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "reference" and len(parts) > 2 else parts[0]


def main(summary_path: str) -> None:
    with open(summary_path) as f:
        summary = json.load(f)
    totals = defaultdict(lambda: [0, 0, 0, 0])  # lines covered, lines, branches covered, branches
    for entry in summary["files"]:
        t = totals[folder_of(entry["filename"])]
        t[0] += entry["line_covered"]
        t[1] += entry["line_total"]
        t[2] += entry["branch_covered"]
        t[3] += entry["branch_total"]
    pct = lambda a, b: f"{100.0 * a / b:6.1f}%" if b else "     -"
    print(f"{'folder':<28} {'lines':>16} {'branches':>16}")
    for folder in sorted(totals):
        lc, lt, bc, bt = totals[folder]
        print(f"{folder:<28} {pct(lc, lt)} {lc:>4}/{lt:<5} {pct(bc, bt)} {bc:>4}/{bt:<5}")


if __name__ == "__main__":
    main(sys.argv[1])
