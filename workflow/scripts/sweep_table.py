"""The table of a sweep: one row per point.

    sweep_table.py --fields '["statistics.steps", ...]' --out TABLE.csv POINT_DIR...

Each POINT_DIR holds point.json (the values set: sweep_scene.py), exit.json
(contactref simulate's exit code: run_step.py) and run/summary.json. The
columns: point, each set path, exit_code, status, message, then each field
(a JSON path into summary.json: jsonpath.py). A run that failed (exit 1)
is a row like any other: its status and message, and the fields it has
(none when it wrote no summary.json). A field missing from a run that did
not fail is an error naming the field: it is misspelt, not a result.
"""
import argparse
import csv
import json
import sys
from pathlib import Path

import jsonpath


class TableError(Exception):
    pass


def cell(value) -> str:
    """CSV text: numbers as Python prints them (shortest round trip), lists and objects as JSON."""
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def row_of(point_dir: Path, fields: list) -> tuple[dict, dict]:
    """(point.json's set values, the row's other cells) of one point."""
    point = json.loads((point_dir / "point.json").read_text())
    exit_code = json.loads((point_dir / "exit.json").read_text())["exit_code"]
    summary_file = point_dir / "run" / "summary.json"
    cells = {"exit_code": exit_code}
    if summary_file.is_file():
        summary = json.loads(summary_file.read_text())
        cells["status"] = summary.get("status", "")
        cells["message"] = summary.get("message", "")
    elif exit_code == 1:
        summary = {}
        cells["status"] = "failed"
        cells["message"] = f"contactref simulate exited 1 without writing {summary_file} (see the sweep's log)"
    else:
        raise TableError(f"{point_dir}: simulate exited {exit_code} but wrote no {summary_file}")
    for field in fields:
        try:
            cells[field] = jsonpath.get(summary, field)
        except jsonpath.PathError as error:
            if exit_code == 1:
                cells[field] = None
            else:
                raise TableError(f"{summary_file}: no field {error}") from None
    return point["set"], cells


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fields", required=True, help="JSON list of summary.json paths")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("point_dirs", type=Path, nargs="+")
    args = parser.parse_args()
    fields = json.loads(args.fields)
    try:
        rows = [(d.name, *row_of(d, fields)) for d in args.point_dirs]
    except (TableError, OSError, ValueError, KeyError) as error:
        print(f"sweep_table: {error}", file=sys.stderr)
        return 1
    paths = list(rows[0][1])
    header = ["point", *paths, "exit_code", "status", "message", *fields]
    with args.out.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for name, values, cells in rows:
            writer.writerow([name, *(cell(values[p]) for p in paths),
                             *(cell(cells[key]) for key in header[1 + len(paths):])])
    failed = [name for name, _, cells in rows if cells["exit_code"] != 0]
    if failed:
        print(f"sweep_table: {len(failed)} of {len(rows)} runs failed: {', '.join(failed)} "
              f"(their status is in {args.out})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
