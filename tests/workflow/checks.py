"""Checks of a workflow run of tests/workflow/tiny.yaml, shared by the local
test (local_test.py) and the Slurm test (slurm_test.sh).

    checks.py OUT --build BUILD [--config tests/workflow/tiny.yaml]

runs `contactref validate SUITES --quick --out` into OUT/../reference (the
suites in the catalogue's order, as the workflow merges them) and checks
OUT: validation.json byte for byte against it; the figures drawn; the
animations (each run's folder, its GIF with the frames asked for, the
report's command that opens the run in the viewer); the benchmark JSON with exactly the filtered benchmarks; each sweep's table
(one row per point, the values set, the expected statuses) and figure; the
report; the verdict; a log per job. Prints every problem; exit 1 if any.
"""
import argparse
import csv
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
GIF = b"GIF89a"


class Checker:
    def __init__(self):
        self.problems = []

    def expect(self, condition: bool, problem: str) -> bool:
        if not condition:
            self.problems.append(problem)
        return condition


def catalogue_order(kind: str, key: str, names: list) -> list:
    catalogue = json.loads((ROOT / "paper_figures" / "catalogue.json").read_text())
    return [entry[key] for entry in catalogue[kind] if entry[key] in names]


def reference_run(build: Path, suites: list, quick: bool, folder: Path) -> subprocess.Popen:
    """`contactref validate` of the same suites, to compare validation.json with."""
    command = [str(build / "contactref"), "validate", *suites, *(["--quick"] if quick else []), "--out", str(folder)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def check_suites(c: Checker, out: Path, reference: Path, suites: list) -> None:
    produced = (out / "validation.json").read_bytes()
    expected = (reference / "validation.json").read_bytes()
    c.expect(produced == expected,
             f"{out}/validation.json differs from {reference}/validation.json (one contactref validate run)")
    timings = json.loads((out / "timings.json").read_text())
    c.expect([s["name"] for s in timings["suites"]] == suites,
             f"timings.json lists {[s['name'] for s in timings['suites']]}, expected {suites}")
    provenance = json.loads((out / "provenance.json").read_text())
    c.expect("workflow/Snakefile" in provenance.get("command", ""),
             f"provenance.json's command does not say the workflow ran it: {provenance.get('command')!r}")
    reference_provenance = json.loads((reference / "provenance.json").read_text())
    c.expect(provenance.get("contactref") == reference_provenance.get("contactref"),
             "provenance.json's build differs from the reference run's")


def check_figures(c: Checker, out: Path, figures: list) -> None:
    for name in figures:
        png = out / "figures" / name / f"{name}.png"
        c.expect(png.is_file() and png.read_bytes()[:8] == PNG, f"figure {png} is missing or not a PNG")
        status = json.loads((out / "status" / "figures" / f"{name}.json").read_text())
        c.expect(status["exit_code"] == 0, f"figure {name} exited {status['exit_code']}")


def check_animations(c: Checker, out: Path, animations: list) -> None:
    catalogue = {a["name"]: a for a in json.loads((ROOT / "paper_figures" / "catalogue.json").read_text())["animations"]}
    html = (out / "report.html").read_text() if (out / "report.html").is_file() else ""
    for name in animations:
        folder = out / "animations" / name
        for step in (".run", ""):
            status = json.loads((out / "status" / "animations" / f"{name}{step}.json").read_text())
            c.expect(status["exit_code"] == 0, f"animation {name}{step} exited {status['exit_code']}")
        summary = folder / "run" / "summary.json"
        c.expect(summary.is_file() and json.loads(summary.read_text())["status"] == "completed",
                 f"animation {name}: {summary} is missing or its run did not complete")
        gif = folder / f"{name}.gif"
        if c.expect(gif.is_file() and gif.read_bytes()[:6] == GIF, f"animation {gif} is missing or not a GIF"):
            frames = gif_frames(gif)
            c.expect(frames == catalogue[name]["frames"],
                     f"animation {gif} has {frames} frames, the catalogue asks for {catalogue[name]['frames']}")
        c.expect(f"contactref view animations/{name}/run" in html,
                 f"the report does not give the command that opens animation {name}'s run in the viewer")


def gif_frames(path: Path) -> int:
    from PIL import Image  # Debian python3-pil, which matplotlib's GIF writer needs anyway
    with Image.open(path) as image:
        return image.n_frames


def check_benchmarks(c: Checker, out: Path, programs: list, args: list, expected_names: list) -> None:
    filters = [a.split("=", 1)[1] for a in args if a.startswith("--benchmark_filter=")]
    for program in programs:
        path = out / "benchmarks" / f"{program}.json"
        if not c.expect(path.is_file(), f"{path} is missing"):
            continue
        document = json.loads(path.read_text())
        names = [b["name"] for b in document.get("benchmarks", [])]
        c.expect(sorted(names) == sorted(expected_names),
                 f"{path} has benchmarks {names}, expected {expected_names}")
        for pattern in filters:
            c.expect(all(re.search(pattern, n) for n in names), f"{path}: a benchmark outside the filter {pattern}")


def same_value(text: str, value) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return float(text) == float(value)
        except ValueError:
            return False
    return text == (json.dumps(value) if isinstance(value, (list, dict)) else str(value))


def check_sweep(c: Checker, out: Path, name: str, spec: dict, statuses: dict) -> None:
    folder = out / "sweeps" / name
    table = folder / f"{name}.csv"
    if not c.expect(table.is_file(), f"{table} is missing"):
        return
    with table.open(newline="") as file:
        rows = list(csv.DictReader(file))
    paths = list(spec["set"])
    points = list(itertools.product(*spec["set"].values()))
    c.expect(len(rows) == len(points), f"{table} has {len(rows)} rows for {len(points)} points")
    for row, values in zip(rows, points):
        for path, value in zip(paths, values):
            c.expect(same_value(row.get(path, ""), value),
                     f"{table}, {row['point']}: {path} is {row.get(path)!r}, expected {value!r}")
        key = ",".join(str(v) for v in values)
        if key in statuses:
            c.expect(row["status"] == statuses[key],
                     f"{table}, {row['point']}: status {row['status']!r}, expected {statuses[key]!r}")
    plot = folder / f"{name}.png"
    c.expect(plot.is_file() and plot.read_bytes()[:8] == PNG, f"{plot} is missing or not a PNG")


def check_run(out: Path, build: Path, config_file: Path, reference: subprocess.Popen, reference_dir: Path,
              expected_benchmarks: list, expected_statuses: dict) -> list:
    """Every problem of the run in OUT, once the reference run has ended."""
    config = yaml.safe_load(config_file.read_text())
    c = Checker()
    _, errors = reference.communicate()
    c.expect(reference.returncode == 0, f"the reference validate run exited {reference.returncode}: {errors[-500:]}")
    suites = catalogue_order("suites", "name", config["suites"])
    if reference.returncode == 0:
        check_suites(c, out, reference_dir, suites)
    check_figures(c, out, config["figures"])
    check_animations(c, out, config["animations"])
    check_benchmarks(c, out, config["benchmarks"], config.get("benchmark_args", []), expected_benchmarks)
    for name, spec in config.get("sweeps", {}).items():
        check_sweep(c, out, name, spec, expected_statuses.get(name, {}))
    for report in ("report.md", "report.html"):
        c.expect((out / report).is_file() and (out / report).stat().st_size > 0, f"{out}/{report} is missing")
    verdict = out / "verdict.json"
    c.expect(verdict.is_file() and json.loads(verdict.read_text())["passed"], f"{verdict} is missing or not passed")
    logs = {p.relative_to(out / "logs").as_posix() for p in (out / "logs").rglob("*.log")}
    wanted = {f"suites/{s}.log" for s in suites} | {f"figures/{f}.log" for f in config["figures"]} | \
             {f"benchmarks/{b}.log" for b in config["benchmarks"]} | {"merge_suites.log", "report.log", "verdict.log"} | \
             {f"animations/{a}.{step}.log" for a in config["animations"] for step in ("simulate", "draw")}
    c.expect(wanted <= logs, f"logs missing under {out}/logs: {sorted(wanted - logs)}")
    return c.problems


# What tiny.yaml's runs must give: its filter's benchmarks, and each sweep point's status
# by its values joined with ",".
TINY_BENCHMARKS = ["BM_TableI_LoopRegular", "BM_TableI_BicubicBezier"]
TINY_STATUSES = {"sphere-mu-spin": {"0.1,0": "completed", "0.1,10000": "failed",
                                    "0.3,0": "completed", "0.3,10000": "failed"}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--build", required=True, type=Path)
    parser.add_argument("--config", type=Path, default=ROOT / "tests" / "workflow" / "tiny.yaml")
    args = parser.parse_args()
    config = yaml.safe_load(args.config.read_text())
    reference_dir = args.out.parent / "reference"
    reference = reference_run(args.build, catalogue_order("suites", "name", config["suites"]),
                              bool(config.get("quick")), reference_dir)
    problems = check_run(args.out, args.build, args.config, reference, reference_dir, TINY_BENCHMARKS, TINY_STATUSES)
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    print(f"checks: {args.out}: {'all outputs as expected' if not problems else f'{len(problems)} problem(s)'}",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
