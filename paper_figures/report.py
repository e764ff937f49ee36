"""Writes OUT/report.md and OUT/report.html from what `contactref validate
--out OUT` wrote (validation.json, timings.json, provenance.json), the
figures under OUT/figures/ and the benchmark programs' Google Benchmark JSON
under OUT/benchmarks/ (if any), through the Jinja2 templates in
paper_figures/templates/ (HTML autoescaped). The HTML page is a static folder
with OUT/figures/: it opens from disk and can be copied.

Every number in the report is the one the run measured; reference numbers are
those the suites attach to their metrics (analytic values, or a paper's number
quoted with its figure or table in the criterion text). What belongs to which
paper, each suite's headline metric, and each figure's paper caption and how
ours differs, come from paper_figures/catalogue.json.

The page opens with the suites that failed (if any), the provenance of the run
(build, compiler and flags, machine, date, command), a summary row per suite
(verdict, checks passed, the headline number beside its reference, the time)
and per benchmark program; then one section per paper (anchor paper-ID) with
its suites (anchor suite-NAME): the checks (a criterion whose bound is
derived, with a pass or FAIL verdict; they alone decide the suite's verdict),
the information (measured numbers without a verdict: "passed" is null in
validation.json, with the timing rows of timings.json among them), the
figures beside the paper's captions, and the paper's benchmark programs.
A suite or a benchmark program that the catalogue does not list is shown
under "Not in the catalogue", never dropped, and the command then exits 1
(as it does when a suite lacks its headline metric): the page is written,
but the catalogue is stale.

Usage: report.py OUT
"""
import json
import math
import sys
from pathlib import Path

import jinja2

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
CATALOGUE = HERE / "catalogue.json"


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


def headline(suite, entry):
    """The catalogue's headline metric of a suite as (name, metric), or None."""
    name = (entry or {}).get("headline")
    if name is None:
        return None
    metric = suite["metrics"].get(name) or suite["timing_metrics"].get(name)
    return (name, metric)


def figures_of(suite, out: Path, figures_by_name):
    """The suite's figures: path, whether it was drawn, its catalogue entry."""
    figures = []
    for path in suite["figures"]:
        name = Path(path).stem
        figures.append(dict(path=path, name=name, exists=(out / path).exists(), entry=figures_by_name.get(name)))
    return figures


def animations_of(suite_names, out: Path, catalogue):
    """The catalogue's animations of these suites (the workflow makes them): the
    GIF, whether it exists, the run folder the viewer opens and how that run
    ended."""
    animations = []
    for entry in catalogue["animations"]:
        if entry["suite"] not in suite_names:
            continue
        folder = f"animations/{entry['name']}"
        summary = read_json(out / folder / "run" / "summary.json") or {}
        animations.append(dict(entry, gif=f"{folder}/{entry['name']}.gif", run=f"{folder}/run",
                               exists=(out / folder / f"{entry['name']}.gif").exists(),
                               run_status=summary.get("status"), run_end=summary.get("end_time")))
    return animations


def suites_for_report(document, timings, out: Path, catalogue):
    """The suites of validation.json with their timings, split rows, headline and figures."""
    by_name = {t["name"]: t for t in (timings or {"suites": []})["suites"]}
    entries = {s["name"]: s for s in catalogue["suites"]}
    figures_by_name = {f["name"]: f for f in catalogue["figures"]}
    suites = []
    for suite in document["suites"]:
        t = by_name.get(suite["name"], {"seconds": float("nan"), "metrics": {}})
        rows = list(suite["metrics"].items())
        checks = [(name, m) for name, m in rows if m["passed"] is not None]
        information = [(name, m) for name, m in rows if m["passed"] is None]
        information += [(name, dict(m, passed=None)) for name, m in t["metrics"].items()]
        entry = entries.get(suite["name"])
        row = dict(suite, seconds=t["seconds"], timing_metrics=t["metrics"], checks=checks,
                   checks_passed=sum(1 for _, m in checks if m["passed"]), information=information,
                   paper=entry["paper"] if entry else None,
                   figure_files=figures_of(suite, out, figures_by_name),
                   animations=animations_of([suite["name"]], out, catalogue))
        row["headline"] = headline(row, entry)
        suites.append(row)
    return suites


def benchmark_rows(document):
    """A Google Benchmark JSON's rows: the medians when it ran repetitions, else every run."""
    runs = document.get("benchmarks", [])
    medians = [b for b in runs if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"]
    return medians or [b for b in runs if b.get("run_type", "iteration") == "iteration"]


def benchmarks_for_report(out: Path, catalogue):
    """Each OUT/benchmarks/PROGRAM.json, in the catalogue's order, then any it does not list."""
    folder = out / "benchmarks"
    files = {p.stem: p for p in sorted(folder.glob("*.json"))} if folder.is_dir() else {}
    listed = [b["program"] for b in catalogue["benchmarks"]]
    entries = {b["program"]: b for b in catalogue["benchmarks"]}
    programs = []
    for program in [p for p in listed if p in files] + [p for p in files if p not in entries]:
        document = json.loads(files[program].read_text())
        entry = entries.get(program, {})
        programs.append(dict(program=program, paper=entry.get("paper"), what=entry.get("what", ""),
                             context=document.get("context", {}), rows=benchmark_rows(document)))
    return programs


def papers_for_report(catalogue, suites, benchmarks, out: Path):
    """One section per paper that has a suite, a benchmark or an animation in
    this run, in the catalogue's order. An animation made without its suite
    (the workflow's `animations` and `suites` chosen apart) is shown in its
    suite's paper's section, never dropped."""
    known = {p["id"] for p in catalogue["papers"]}
    run_suites = {s["name"] for s in suites}
    sections = []
    for paper in catalogue["papers"]:
        mine = [s for s in suites if s["paper"] == paper["id"]]
        programs = [b for b in benchmarks if b["paper"] == paper["id"]]
        absent = [s["name"] for s in catalogue["suites"] if s["paper"] == paper["id"] and s["name"] not in run_suites]
        animations = [a for a in animations_of(absent, out, catalogue) if a["exists"]]
        if mine or programs or animations:
            sections.append(dict(paper, suites=mine, benchmarks=programs, animations=animations))
    unlisted = dict(id="not-in-catalogue", title="Not in the catalogue", citation=None, file=None,
                    suites=[s for s in suites if s["paper"] not in known],
                    benchmarks=[b for b in benchmarks if b["paper"] not in known], animations=[])
    if unlisted["suites"] or unlisted["benchmarks"]:
        sections.append(unlisted)
    return sections


def totals(suites) -> str:
    passed = sum(1 for s in suites if s["passed"])
    checks = sum(len(s["checks"]) for s in suites)
    checks_passed = sum(s["checks_passed"] for s in suites)
    information = sum(len(s["information"]) for s in suites)
    return (f"{passed} of {len(suites)} suites passed: {checks_passed} of {checks} checks passed; "
            f"{information} information rows (no verdict).")


def render(suites, benchmarks, provenance, catalogue, out: Path):
    """(markdown, html) of the report."""
    titles = {p["id"]: p["title"] for p in catalogue["papers"]}
    context = dict(suites=suites, failed=[s for s in suites if not s["passed"]], provenance=provenance,
                   totals=totals(suites), benchmarks=benchmarks,
                   papers=papers_for_report(catalogue, suites, benchmarks, out), titles=titles, fmt=fmt)
    loader = jinja2.FileSystemLoader(TEMPLATES)
    html = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined)
    markdown = jinja2.Environment(loader=loader, autoescape=False, undefined=jinja2.StrictUndefined,
                                  keep_trailing_newline=True)
    return (markdown.get_template("report.md.j2").render(context),
            html.get_template("report.html.j2").render(context))


def catalogue_gaps(suites, benchmarks):
    """What the run has that the catalogue does not describe: the page shows
    each in red; the command says so and exits 1 (a stale catalogue)."""
    gaps = [f"suite {s['name']} is not in the catalogue" for s in suites if s["paper"] is None]
    gaps += [f"suite {s['name']}'s headline metric {s['headline'][0]} is not among its metrics"
             for s in suites if s["headline"] and s["headline"][1] is None]
    gaps += [f"figure {f['name']} is not in the catalogue" for s in suites for f in s["figure_files"] if not f["entry"]]
    gaps += [f"benchmark program {b['program']} is not in the catalogue" for b in benchmarks if b["paper"] is None]
    return gaps


def main(out: Path) -> int:
    source = out / "validation.json"
    if not source.exists():
        print(f"report: {source} is missing (run `contactref validate all --out {out}` first)", file=sys.stderr)
        return 2
    catalogue = read_json(CATALOGUE)
    suites = suites_for_report(read_json(source), read_json(out / "timings.json"), out, catalogue)
    benchmarks = benchmarks_for_report(out, catalogue)
    markdown, html = render(suites, benchmarks, read_json(out / "provenance.json"), catalogue, out)
    (out / "report.md").write_text(markdown)
    (out / "report.html").write_text(html)
    gaps = catalogue_gaps(suites, benchmarks)
    for gap in gaps:
        print(f"report: {gap} ({CATALOGUE})", file=sys.stderr)
    return 1 if gaps else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
