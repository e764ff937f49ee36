"""Runs one contactref command for a workflow rule and records how it ended.

    run_step.py [--status FILE] [--log FILE] [--allow-exit 1] [--requires FILE]...
                [--fresh DIR] -- COMMAND...

contactref exits 0 on success, 1 when a check or a computation failed and 2
on bad input. Exit 1 is a result the workflow reports (a failed suite in the
report, a failed sweep point in its table), so with `--allow-exit 1` this
script still succeeds and the rule's outputs stand; the code is written to
the status file (JSON: command, exit_code) for the rules that report it.
Any other code (2: bad input; a signal) fails the rule with the command's
last lines of output.

--requires names files the command must have written whenever this script
succeeds (a suite that exits 1 must still have written validation.json;
exit 1 without it means the suite threw, which is not a result).
--fresh removes DIR first, so that a rerun never reads a previous run's files.
--log writes the command's stdout and stderr to FILE (default: inherit).
"""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path


def tail(path: Path, lines: int = 15) -> str:
    try:
        return "".join(path.read_text(errors="replace").splitlines(keepends=True)[-lines:])
    except OSError:
        return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--status", type=Path)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--allow-exit", type=int, action="append", default=[])
    parser.add_argument("--requires", type=Path, action="append", default=[])
    parser.add_argument("--fresh", type=Path)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    if args.fresh is not None and args.fresh.exists():
        shutil.rmtree(args.fresh)
    if args.log is not None:
        args.log.parent.mkdir(parents=True, exist_ok=True)
        with args.log.open("w") as log:
            log.write("$ " + " ".join(args.command) + "\n")
            log.flush()
            code = subprocess.run(args.command, stdout=log, stderr=subprocess.STDOUT).returncode
    else:
        code = subprocess.run(args.command).returncode

    command = " ".join(args.command)
    where = f" (log: {args.log})" if args.log else ""
    if code != 0 and code not in args.allow_exit:
        reason = "bad input" if code == 2 else ("killed by a signal" if code < 0 else "failed")
        message = f"run_step: `{command}` exited with status {code} ({reason}){where}"
        if args.log:
            message += "\n--- last lines of the log:\n" + tail(args.log)
        print(message, file=sys.stderr)
        return 1
    missing = [str(path) for path in args.requires if not path.is_file()]
    if missing:
        print(f"run_step: `{command}` exited with status {code} without writing {', '.join(missing)}{where}",
              file=sys.stderr)
        return 1
    if args.status is not None:
        args.status.parent.mkdir(parents=True, exist_ok=True)
        args.status.write_text(json.dumps({"command": args.command, "exit_code": code}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
