#!/usr/bin/env python3
"""A stand-in for build/contactref in tests/workflow/local_test.py: it
answers `validate NAME [--quick] --out DIR`, `figures --only NAME --out OUT`
and `simulate SCENE --out DIR` at once, with the suites named in
FAKE_FAILED_SUITES failing (exit 1, "passed": false), the figures named in
FAKE_FAILED_FIGURES not drawn (exit 1) and the scenes (file names without
.json) named in FAKE_FAILED_SCENES ending failed (exit 1, status "failed",
their files written), so that the workflow's handling of failures is tested
in seconds. Its files have the layout the real one writes (nlohmann's
dump(2)); a run is a unit cube moving 1 m along x in 1 s.
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


CUBE_PLY = (Path(__file__).resolve().parents[1] / "data" / "unit_cube_quads.ply").read_text()


def simulate(args) -> int:
    out = Path(args[args.index("--out") + 1])
    failed = Path(args[0]).stem in os.environ.get("FAKE_FAILED_SCENES", "").split(",")
    (out / "shapes").mkdir(parents=True, exist_ok=True)
    (out / "shapes" / "body0.ply").write_text(CUBE_PLY)
    write(out / "shapes.json", {"bodies": [{"name": "cube", "geometry": "box", "fixed": False,
                                            "file": "shapes/body0.ply", "vertices": 8, "faces": 6}]})
    rows = [f"{t},cube,{t},0,0,1,0,0,0" for t in (0, 0.5, 1)]
    (out / "bodies.csv").write_text("time,body,x,y,z,qw,qx,qy,qz\n" + "\n".join(rows) + "\n")
    write(out / "summary.json", {"status": "failed" if failed else "completed", "end_time": 1.0})
    return 1 if failed else 0


def main() -> int:
    command, args = sys.argv[1], sys.argv[2:]
    if command == "validate":
        return validate(args)
    if command == "figures":
        return figures(args)
    if command == "simulate":
        return simulate(args)
    print(f"fake_contactref: no fake for {command}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
