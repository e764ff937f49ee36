"""Writes OUT/report.md and OUT/report.html from what `contactref validate
--out OUT` wrote (validation.json, timings.json, provenance.json) and the
figures under OUT/figures/, through the Jinja2 templates in
paper_figures/templates/ (HTML autoescaped).

Every number in the report is the one the validation run measured; reference
numbers are those the suites attach to their metrics (analytic values, or a
paper's number quoted with its figure or table in the criterion text).

The page opens with the suites that failed (if any), the provenance of the
run (build, compiler and flags, machine, date, command) and a summary row per
suite. Each suite's rows are then shown in two tables: the checks (a
criterion whose bound is derived, with a pass or FAIL verdict; they alone
decide the suite's verdict) and the information (measured numbers without a
verdict: "passed" is null in validation.json), with the timing rows of
timings.json (wall and CPU times, which differ from run to run) among the
information.

Usage: report.py OUT
"""
import json
import math
import sys
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parent / "templates"


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, (int, float)):
        return "-" if isinstance(x, float) and math.isnan(x) else f"{x:.6g}"
    return str(x)


def read_json(path: Path):
    return json.loads(path.read_text()) if path.exists() else None


def suites_for_report(document, timings, out: Path):
    """The suites of validation.json with their timings, split rows and figures."""
    by_name = {t["name"]: t for t in (timings or {"suites": []})["suites"]}
    suites = []
    for suite in document["suites"]:
        t = by_name.get(suite["name"], {"seconds": float("nan"), "metrics": {}})
        rows = list(suite["metrics"].items())
        checks = [(name, m) for name, m in rows if m["passed"] is not None]
        information = [(name, m) for name, m in rows if m["passed"] is None]
        information += [(name, dict(m, passed=None)) for name, m in t["metrics"].items()]
        suites.append(dict(
            suite,
            seconds=t["seconds"],
            checks=checks,
            checks_passed=sum(1 for _, m in checks if m["passed"]),
            information=information,
            figure_files=[(figure, (out / figure).exists()) for figure in suite["figures"]],
        ))
    return suites


def totals(suites) -> str:
    passed = sum(1 for s in suites if s["passed"])
    checks = sum(len(s["checks"]) for s in suites)
    checks_passed = sum(s["checks_passed"] for s in suites)
    information = sum(len(s["information"]) for s in suites)
    return (f"{passed} of {len(suites)} suites passed: {checks_passed} of {checks} checks passed; "
            f"{information} information rows (no verdict).")


def render(out: Path, document, timings, provenance):
    """(markdown, html) of the report."""
    suites = suites_for_report(document, timings, out)
    context = dict(suites=suites, failed=[s for s in suites if not s["passed"]], provenance=provenance,
                   totals=totals(suites), fmt=fmt)
    loader = jinja2.FileSystemLoader(TEMPLATES)
    html = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined)
    markdown = jinja2.Environment(loader=loader, autoescape=False, undefined=jinja2.StrictUndefined,
                                  keep_trailing_newline=True)
    return (markdown.get_template("report.md.j2").render(context),
            html.get_template("report.html.j2").render(context))


def main(out: Path) -> int:
    source = out / "validation.json"
    if not source.exists():
        print(f"report: {source} is missing (run `contactref validate all --out {out}` first)", file=sys.stderr)
        return 2
    markdown, html = render(out, read_json(source), read_json(out / "timings.json"),
                            read_json(out / "provenance.json"))
    (out / "report.md").write_text(markdown)
    (out / "report.html").write_text(html)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
