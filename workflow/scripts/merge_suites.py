"""Merges the workflow's per-suite runs into the files one
`contactref validate SUITE... --out OUT` writes:

    merge_suites.py OUT SUITE_DIR... --command TEXT

Each SUITE_DIR holds validation.json, timings.json and provenance.json of one
`contactref validate NAME --out SUITE_DIR`; their order is the report's
(the catalogue's). Writes OUT/validation.json, OUT/timings.json and
OUT/provenance.json.

validation.json must be byte for byte what one validate run of the same
suites writes. Its numbers are copied as text, never parsed and printed
again: nlohmann-json's dump(2) and Python's json.dumps agree on layout but
not on every number (nlohmann prints 1e15 <= |x| < 1e16 as 1e+15 where
Python prints 1000000000000000.0, and its Grisu2 digits are not always the
shortest that Python's repr gives). Each document is checked to hold one
suite, and the merged text is checked to parse into exactly the suites read.

provenance.json is the suites' own (same build, machine and layout), except:
- "command" says that the workflow ran the suites, one validate per suite,
  and merged them (the per-suite commands differ only by name);
- "date" is the latest suite's, as validate writes its provenance after its
  last suite;
- a "machine" field that differs between suites (a cluster's nodes) lists
  the distinct values joined by " / ".
Suites from different builds ("contactref" differs) are an error.
"""
import argparse
import json
import sys
from pathlib import Path


class MergeError(Exception):
    pass


def suite_element(path: Path) -> tuple[str, str, dict]:
    """(text before the suites' array, the text of its one element, the parsed document) of a
    document written by nlohmann's dump(2): `{...\n  "suites": [\n    ELEMENT\n  ]\n}\n`."""
    text = path.read_text()
    document = json.loads(text)
    suites = document.get("suites")
    if not isinstance(suites, list) or len(suites) != 1:
        raise MergeError(f"{path}: expected one suite in \"suites\", found "
                         f"{len(suites) if isinstance(suites, list) else 'no list'}")
    opening = '  "suites": [\n'
    closing = "\n  ]\n}\n"
    start = text.find(opening)
    if start < 0 or not text.endswith(closing) or list(document)[-1] != "suites":
        raise MergeError(f"{path}: not the layout contactref writes (\"suites\" last, indented by 2)")
    return text[:start + len(opening)], text[start + len(opening):-len(closing)], document


def merge_documents(paths: list[Path]) -> str:
    """The merged text of per-suite documents with one "suites" array each."""
    parts = [suite_element(path) for path in paths]
    head = parts[0][0]
    for path, (other_head, _, _) in zip(paths, parts):
        if other_head != head:
            raise MergeError(f"{path}: its fields before \"suites\" differ from {paths[0]}'s")
    text = head + ",\n".join(element for _, element, _ in parts) + "\n  ]\n}\n"
    expected = dict(parts[0][2], suites=[document["suites"][0] for _, _, document in parts])
    if json.loads(text) != expected:
        raise MergeError(f"merging {', '.join(map(str, paths))} did not give back the suites read")
    return text


def merged_provenance(paths: list[Path], command: str) -> dict:
    documents = [json.loads(path.read_text()) for path in paths]
    first = documents[0]
    for path, document in zip(paths, documents):
        if document.get("contactref") != first.get("contactref"):
            raise MergeError(f"{path}: made by another build than {paths[0]} "
                             f"({document.get('contactref')} against {first.get('contactref')})")
    merged = dict(first)
    machine = {}
    for key in first.get("machine", {}):
        values = []
        for document in documents:
            value = document.get("machine", {}).get(key)
            if value not in values:
                values.append(value)
        machine[key] = values[0] if len(values) == 1 else " / ".join(str(v) for v in values)
    if "machine" in first:
        merged["machine"] = machine
    merged["date"] = max(document["date"] for document in documents)
    merged["command"] = command
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("suite_dirs", type=Path, nargs="+")
    parser.add_argument("--command", required=True, help="the provenance's command field")
    args = parser.parse_args()
    try:
        validation = merge_documents([d / "validation.json" for d in args.suite_dirs])
        timings = merge_documents([d / "timings.json" for d in args.suite_dirs])
        provenance = merged_provenance([d / "provenance.json" for d in args.suite_dirs], args.command)
    except (MergeError, OSError, json.JSONDecodeError, KeyError) as error:
        print(f"merge_suites: {error}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "validation.json").write_text(validation)
    (args.out / "timings.json").write_text(timings)
    # nlohmann's dump(2) layout; provenance holds strings, booleans and integers only,
    # which both libraries print alike.
    (args.out / "provenance.json").write_text(json.dumps(provenance, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
