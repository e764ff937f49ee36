"""The workflow's local path (ctest: workflow_local):

    local_test.py BUILD_DIR

1. runs workflow/Snakefile with `--cores 2` on tests/workflow/tiny.yaml (two
   quick suites, one figure, one filtered benchmark program, one sweep of
   three points, one of which fails) into a temporary folder and checks its
   outputs (checks.py: validation.json byte for byte against one contactref
   validate run of the same suites, run meanwhile);
2. the error paths: a sweep naming a JSON path its scene lacks fails before
   any job, naming the path; a sweep value the scene reader refuses (exit 2)
   fails the workflow naming the command; a failed suite and an undrawn
   figure (a stand-in contactref, fake_contactref.py) still give the report,
   and the workflow exits 1 naming them.
KEEP=1 keeps the temporary folder. Exit 0 when all hold.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

import checks

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SNAKEFILE = ROOT / "workflow" / "Snakefile"


def snakemake(workdir: Path, *args: str, env=None) -> subprocess.CompletedProcess:
    command = ["snakemake", "--snakefile", str(SNAKEFILE), "--directory", str(workdir), "--cores", "2", *args]
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=None if env is None else {**os.environ, **env})


def write_config(path: Path, document: dict) -> Path:
    path.write_text(yaml.safe_dump(document))
    return path


def main_run(c: checks.Checker, tmp: Path, build: Path) -> None:
    config = HERE / "tiny.yaml"
    work = tmp / "main"
    work.mkdir()
    tiny = yaml.safe_load(config.read_text())
    # The reference run goes alongside the workflow's jobs.
    reference = checks.reference_run(build, checks.catalogue_order("suites", "name", tiny["suites"]),
                                     bool(tiny.get("quick")), work / "reference")
    run = snakemake(work, "--configfile", str(config), "--config", f"build={build}", "out=out")
    if not c.expect(run.returncode == 0, f"the workflow exited {run.returncode}:\n{run.stdout[-3000:]}"):
        reference.wait()
        return
    c.problems += checks.check_run(work / "out", build, config, reference, work / "reference",
                                   checks.TINY_BENCHMARKS, checks.TINY_STATUSES)


def missing_path(c: checks.Checker, tmp: Path, build: Path) -> None:
    work = tmp / "missing-path"
    work.mkdir()
    config = write_config(work / "config.yaml", {"sweeps": {"typo": {
        "scene": "validation/fixtures/scenes/sphere_sliding_on_plane.json",
        "set": {"friction.muu": [0.1, 0.2]}, "plot": {"x": "friction.muu", "y": "end_time"}}}})
    run = snakemake(work, "--configfile", str(config), "--config", f"build={build}", "suites=none", "figures=none",
                    "benchmarks=none")
    c.expect(run.returncode != 0, "a sweep of a path the scene lacks did not fail")
    c.expect("friction.muu" in run.stdout and "has no field 'muu'" in run.stdout,
             f"the error does not name the path friction.muu:\n{run.stdout[-2000:]}")
    c.expect(not (work / "out").exists(), "a job ran although the configuration was wrong")


def bad_input(c: checks.Checker, tmp: Path, build: Path) -> None:
    work = tmp / "bad-input"
    work.mkdir()
    config = write_config(work / "config.yaml", {"sweeps": {"negative": {
        "scene": "validation/fixtures/scenes/sphere_sliding_on_plane.json",
        "set": {"friction.mu": [-1.0]}, "plot": {"x": "friction.mu", "y": "end_time"}}}})
    run = snakemake(work, "--configfile", str(config), "--config", f"build={build}", "suites=none", "figures=none",
                    "benchmarks=none")
    c.expect(run.returncode != 0, "a sweep point the scene reader refuses (exit 2) did not fail the workflow")
    c.expect("exited with status 2 (bad input)" in run.stdout and "friction.mu" in run.stdout,
             f"the failure does not say bad input and name the field:\n{run.stdout[-2000:]}")
    c.expect(not (work / "out" / "sweeps" / "negative" / "negative.csv").exists(),
             "a table was written although a point had bad input")


def failures_reported(c: checks.Checker, tmp: Path) -> None:
    work = tmp / "failures"
    fake_build = work / "build"
    fake_build.mkdir(parents=True)
    (fake_build / "contactref").symlink_to(HERE / "fake_contactref.py")
    run = snakemake(work, "--config", f"build={fake_build}", "suites=[torque-free-body,brep-contact]",
                    "figures=[torque-free-convergence,brep-fig-3]", "animations=[octagon-sliding,pinch-grasp]",
                    "benchmarks=none", "out=out",
                    env={"FAKE_FAILED_SUITES": "brep-contact", "FAKE_FAILED_FIGURES": "brep-fig-3",
                         "FAKE_FAILED_SCENES": "pinch_grasp"})
    out = work / "out"
    c.expect(run.returncode == 1, f"a failed suite and figure: the workflow exited {run.returncode}, expected 1")
    c.expect("1 of 2 suites FAILED: brep-contact" in run.stdout, "the verdict does not name the failed suite")
    c.expect("1 of 2 figures were not drawn: brep-fig-3" in run.stdout, "the verdict does not name the figure")
    c.expect("1 of 2 animations were not made: pinch-grasp (its run ended failed)" in run.stdout,
             "the verdict does not name the animation whose run failed")
    # A run that ended failed is still drawn (it shows what happened), and the report says how it ended.
    c.expect((out / "animations" / "pinch-grasp" / "pinch-grasp.gif").is_file(),
             "the failed run's animation was not drawn")
    c.expect("the run failed at t = 1 s" in (out / "report.html").read_text() if (out / "report.html").is_file()
             else False, "the report does not say that the animation's run failed")
    c.expect((out / "report.html").is_file() and (out / "report.md").is_file(),
             "the report was not written after a failed suite")
    c.expect(not (out / "verdict.json").exists(), "verdict.json written although a suite failed")
    if (out / "validation.json").is_file():
        suites = json.loads((out / "validation.json").read_text())["suites"]
        c.expect([(s["name"], s["passed"]) for s in suites] == [("torque-free-body", True), ("brep-contact", False)],
                 f"the merged validation.json has {[(s['name'], s['passed']) for s in suites]}")


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = Path(sys.argv[1]).resolve()
    if shutil.which("snakemake") is None:
        print("local_test: snakemake is missing (Debian package snakemake; scripts/bootstrap.sh installs it)",
              file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="contactref-workflow-"))
    c = checks.Checker()
    try:
        steps = [("tiny.yaml run and its outputs", lambda: main_run(c, tmp, build)),
                 ("a sweep path the scene lacks", lambda: missing_path(c, tmp, build)),
                 ("a sweep value that is bad input", lambda: bad_input(c, tmp, build)),
                 ("a failed suite, figure and animation run", lambda: failures_reported(c, tmp))]
        for name, step in steps:
            start = time.monotonic()
            before = len(c.problems)
            step()
            print(f"local_test: {name}: {len(c.problems) - before} problem(s), {time.monotonic() - start:.1f} s",
                  file=sys.stderr)
    finally:
        if os.environ.get("KEEP"):
            print(f"local_test: kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    for problem in c.problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    print(f"local_test: {'passed' if not c.problems else f'{len(c.problems)} problem(s)'}", file=sys.stderr)
    return 1 if c.problems else 0


if __name__ == "__main__":
    sys.exit(main())
