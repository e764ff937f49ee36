#!/usr/bin/env python3
"""A stand-in for build/contactref in tests/workflow/local_test.py: it
answers `validate NAME [--quick] --out DIR` and `figures --only NAME --out
OUT` at once, with the suites named in FAKE_FAILED_SUITES failing (exit 1,
"passed": false) and the figures named in FAKE_FAILED_FIGURES not drawn
(exit 1), so that the workflow's handling of failures is tested in seconds.
Its files have the layout the real one writes (nlohmann's dump(2)).
"""
import json
import os
import sys
from pathlib import Path


def write(path: Path, document) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n")


def headline(name: str) -> str:
    """The suite's headline metric in paper_figures/catalogue.json, which the report requires."""
    catalogue = json.loads((Path(__file__).resolve().parents[2] / "paper_figures" / "catalogue.json").read_text())
    return next(s["headline"] for s in catalogue["suites"] if s["name"] == name)


def validate(args) -> int:
    out = Path(args[args.index("--out") + 1])
    name = args[0]
    passed = name not in os.environ.get("FAKE_FAILED_SUITES", "").split(",")
    metric = {"value": 1.0, "reference": 1.0, "criterion": "fake", "passed": passed}
    write(out / "validation.json", {"suites": [{"name": name, "passed": passed, "metrics": {headline(name): metric},
                                                "figures": []}]})
    write(out / "timings.json", {"note": "fake", "suites": [{"name": name, "seconds": 0.0, "metrics": {}}]})
    contactref = {"version": "0", "git_revision": "fake", "dirty": False, "build_type": "Release",
                  "compiler": "fake", "cxx_flags": ""}
    write(out / "provenance.json", {"contactref": contactref, "machine": {"cpu": "fake", "hardware_threads": 1},
                                    "date": "2026-01-01T00:00:00Z", "command": "contactref validate " + " ".join(args)})
    return 0 if passed else 1


def figures(args) -> int:
    name = args[args.index("--only") + 1]
    if name in os.environ.get("FAKE_FAILED_FIGURES", "").split(","):
        print(f"fake: figure {name} FAILED", file=sys.stderr)
        return 1
    folder = Path(args[args.index("--out") + 1]) / "figures" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.png").write_bytes(b"not a PNG: fake_contactref.py")
    return 0


def main() -> int:
    command, args = sys.argv[1], sys.argv[2:]
    if command == "validate":
        return validate(args)
    if command == "figures":
        return figures(args)
    print(f"fake_contactref: no fake for {command}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
