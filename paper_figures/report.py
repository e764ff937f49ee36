"""Writes OUT/report.md and OUT/report.html from OUT/validation.json (written
by `contactref validate --out OUT`) and the figures under OUT/figures/.

Every number in the report is the one the validation run measured; reference
numbers are those the suites attach to their metrics (analytic values, or a
paper's number quoted with its figure or table in the criterion text).

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


def markdown(document, out: Path) -> str:
    lines = ["# contactref validation report", ""]
    suites = document["suites"]
    passed = sum(1 for s in suites if s["passed"])
    lines += [f"{passed} of {len(suites)} suites passed.", ""]
    for suite in suites:
        verdict = "PASSED" if suite["passed"] else "FAILED"
        lines += [f"## {suite['name']}: {verdict} ({suite['seconds']:.2f} s)", ""]
        lines += ["| metric | measured | reference | criterion | result |", "|---|---|---|---|---|"]
        for name, m in suite["metrics"].items():
            result = "pass" if m["passed"] else "**FAIL**"
            criterion = m["criterion"].replace("|", "\\|")
            lines.append(f"| {name} | {fmt(m['value'])} | {fmt(m['reference'])} | {criterion} | {result} |")
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
        "img{max-width:100%}</style></head><body><h1>contactref validation report</h1>",
    ]
    for suite in document["suites"]:
        verdict = "PASSED" if suite["passed"] else "<span class='fail'>FAILED</span>"
        parts.append(f"<h2>{e(suite['name'])}: {verdict} ({suite['seconds']:.2f} s)</h2>")
        parts.append("<table><tr><th>metric</th><th>measured</th><th>reference</th><th>criterion</th><th>result</th></tr>")
        for name, m in suite["metrics"].items():
            result = "pass" if m["passed"] else "<span class='fail'>FAIL</span>"
            parts.append(
                f"<tr><td>{e(name)}</td><td>{fmt(m['value'])}</td><td>{fmt(m['reference'])}</td>"
                f"<td>{e(m['criterion'])}</td><td>{result}</td></tr>"
            )
        parts.append("</table>")
        for figure in suite["figures"]:
            if (out / figure).exists():
                parts.append(f"<p><img src='{e(figure)}' alt='{e(figure)}'></p>")
            else:
                parts.append(f"<p class='fail'>figure {e(figure)} was not generated</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def main(out: Path) -> int:
    source = out / "validation.json"
    if not source.exists():
        print(f"report: {source} is missing (run `contactref validate all --out {out}` first)", file=sys.stderr)
        return 2
    document = json.loads(source.read_text())
    (out / "report.md").write_text(markdown(document, out))
    (out / "report.html").write_text(html_page(document, out))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
