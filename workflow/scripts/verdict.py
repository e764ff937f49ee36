"""The workflow's verdict, its last job: did every suite pass, every figure
get drawn and every animation get made?

    verdict.py [--validation OUT/validation.json] --figures STATUS.json...
               --animations STATUS.json... --out OUT/verdict.json

An animation has two status files, NAME.run.json (its `contactref simulate`)
and NAME.json (the drawing); it is made when both exited 0. Writes
OUT/verdict.json and exits 0 when so. Otherwise it names the failed suites,
figures and animations and exits 1 without writing it, so that snakemake exits 1
(and reruns only this job next time, until they pass). The report is
written before, with the failed suites first.
"""
import argparse
import json
import sys
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--validation", type=Path)
    parser.add_argument("--figures", type=Path, nargs="*", default=[])
    parser.add_argument("--animations", type=Path, nargs="*", default=[])
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()

    suites = json.loads(args.validation.read_text())["suites"] if args.validation else []
    failed_suites = [suite["name"] for suite in suites if not suite["passed"]]
    figures = {path.stem: json.loads(path.read_text())["exit_code"] for path in args.figures}
    failed_figures = [name for name, code in figures.items() if code != 0]
    animations, failed_animations = [], []
    for path in args.animations:  # NAME.run.json, then NAME.json
        name, step = (path.name[:-len(".run.json")], "its run ended failed") if path.name.endswith(".run.json") \
            else (path.stem, "not drawn")
        animations += [name] if name not in animations else []
        if json.loads(path.read_text())["exit_code"] != 0:
            failed_animations.append(f"{name} ({step})")

    verdict = {
        "passed": not failed_suites and not failed_figures and not failed_animations,
        "suites": len(suites),
        "failed_suites": failed_suites,
        "figures": len(figures),
        "failed_figures": failed_figures,
        "animations": len(animations),
        "failed_animations": failed_animations,
    }
    if not verdict["passed"]:
        if failed_suites:
            print(f"verdict: {len(failed_suites)} of {len(suites)} suites FAILED: {', '.join(failed_suites)} "
                  "(the report shows them first)", file=sys.stderr)
        if failed_figures:
            print(f"verdict: {len(failed_figures)} of {len(figures)} figures were not drawn: "
                  f"{', '.join(failed_figures)} (their logs are under logs/figures/)", file=sys.stderr)
        if failed_animations:
            print(f"verdict: {len(failed_animations)} of {len(animations)} animations were not made: "
                  f"{', '.join(failed_animations)} (their logs are under logs/animations/)", file=sys.stderr)
        return 1
    print(f"verdict: all {len(suites)} suites passed, all {len(figures)} figures drawn, "
          f"all {len(animations)} animations made", file=sys.stderr)
    args.out.write_text(json.dumps(verdict, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
