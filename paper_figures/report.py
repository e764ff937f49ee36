"""Writes OUT/report.md and OUT/report.html from OUT/validation.json and
OUT/timings.json (written by `contactref validate --out OUT`) and the figures
under OUT/figures/.

Every number in the report is the one the validation run measured; reference
numbers are those the suites attach to their metrics (analytic values, or a
paper's number quoted with its figure or table in the criterion text).

Each suite's rows are shown in two tables: the checks (a criterion whose
bound is derived, with a pass or FAIL verdict; they alone decide the suite's
verdict) and the information (measured numbers without a verdict: "passed"
is null in validation.json), with the timing rows of timings.json (wall and
CPU times, which differ from run to run) among the information.

Usage: report.py OUT
"""
import html
import json
import sys
from pathlib import Path


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x).lower()
    if isinstance(x, (int, float)):
        return f"{x:.6g}"
    return str(x)


def split_rows(suite):
    """(checks, information): lists of (name, metric) in the suite's order."""
    rows = list(suite["metrics"].items())
    checks = [(name, m) for name, m in rows if m["passed"] is not None]
    information = [(name, m) for name, m in rows if m["passed"] is None]
    return checks, information


def summary(suites) -> str:
    passed = sum(1 for s in suites if s["passed"])
    checks = sum(len(split_rows(s)[0]) for s in suites)
    failed = sum(1 for s in suites for _, m in split_rows(s)[0] if not m["passed"])
    information = sum(len(split_rows(s)[1]) for s in suites)
    return (f"{passed} of {len(suites)} suites passed: {checks - failed} of {checks} checks passed; "
            f"{information} information rows (no verdict).")


def markdown(document, out: Path) -> str:
    lines = ["# contactref validation report", ""]
    suites = document["suites"]
    lines += [summary(suites), ""]
    for suite in suites:
        verdict = "PASSED" if suite["passed"] else "FAILED"
        checks, information = split_rows(suite)
        lines += [f"## {suite['name']}: {verdict} ({suite['seconds']:.2f} s)", ""]
        lines += [f"### Checks ({len(checks)})", ""]
        lines += ["| metric | measured | reference | criterion and its bound's derivation | result |",
                  "|---|---|---|---|---|"]
        for name, m in checks:
            result = "pass" if m["passed"] else "**FAIL**"
            criterion = m["criterion"].replace("|", "\\|")
            lines.append(f"| {name} | {fmt(m['value'])} | {fmt(m['reference'])} | {criterion} | {result} |")
        lines.append("")
        if information:
            lines += [f"### Information ({len(information)}, no verdict)", ""]
            lines += ["| metric | measured | reference | what it is |", "|---|---|---|---|"]
            for name, m in information:
                description = m["criterion"].replace("|", "\\|")
                lines.append(f"| {name} | {fmt(m['value'])} | {fmt(m['reference'])} | {description} |")
            lines.append("")
        for figure in suite["figures"]:
            if (out / figure).exists():
                lines += [f"![{figure}]({figure})", ""]
            else:
                lines += [f"(figure {figure} was not generated)", ""]
    return "\n".join(lines) + "\n"


def html_page(document, out: Path) -> str:
    e = html.escape
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>contactref validation report</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:3px 8px;font-size:90%}.fail{color:#b00;font-weight:bold}"
        ".info td{color:#555}img{max-width:100%}</style></head><body><h1>contactref validation report</h1>",
        f"<p>{e(summary(document['suites']))}</p>",
    ]
    for suite in document["suites"]:
        verdict = "PASSED" if suite["passed"] else "<span class='fail'>FAILED</span>"
        checks, information = split_rows(suite)
        parts.append(f"<h2>{e(suite['name'])}: {verdict} ({suite['seconds']:.2f} s)</h2>")
        parts.append(f"<h3>Checks ({len(checks)})</h3>")
        parts.append("<table><tr><th>metric</th><th>measured</th><th>reference</th>"
                     "<th>criterion and its bound's derivation</th><th>result</th></tr>")
        for name, m in checks:
            result = "pass" if m["passed"] else "<span class='fail'>FAIL</span>"
            parts.append(
                f"<tr><td>{e(name)}</td><td>{fmt(m['value'])}</td><td>{fmt(m['reference'])}</td>"
                f"<td>{e(m['criterion'])}</td><td>{result}</td></tr>"
            )
        parts.append("</table>")
        if information:
            parts.append(f"<h3>Information ({len(information)}, no verdict)</h3>")
            parts.append("<table class='info'><tr><th>metric</th><th>measured</th><th>reference</th>"
                         "<th>what it is</th></tr>")
            for name, m in information:
                parts.append(
                    f"<tr><td>{e(name)}</td><td>{fmt(m['value'])}</td><td>{fmt(m['reference'])}</td>"
                    f"<td>{e(m['criterion'])}</td></tr>"
                )
            parts.append("</table>")
        for figure in suite["figures"]:
            if (out / figure).exists():
                parts.append(f"<p><img src='{e(figure)}' alt='{e(figure)}'></p>")
            else:
                parts.append(f"<p class='fail'>figure {e(figure)} was not generated</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def with_timings(document, path: Path):
    """Adds each suite's seconds and timing rows (as information) from timings.json."""
    timings = {t["name"]: t for t in json.loads(path.read_text())["suites"]} if path.exists() else {}
    for suite in document["suites"]:
        t = timings.get(suite["name"], {"seconds": float("nan"), "metrics": {}})
        suite["seconds"] = t["seconds"]
        for name, m in t["metrics"].items():
            suite["metrics"][name] = dict(m, passed=None)


def main(out: Path) -> int:
    source = out / "validation.json"
    if not source.exists():
        print(f"report: {source} is missing (run `contactref validate all --out {out}` first)", file=sys.stderr)
        return 2
    document = json.loads(source.read_text())
    with_timings(document, out / "timings.json")
    (out / "report.md").write_text(markdown(document, out))
    (out / "report.html").write_text(html_page(document, out))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
