"""Dotted JSON paths, as the scene reader names fields in its errors:
`friction.mu`, `model.time_step`, `bodies[1].velocity.linear[0]`
(`bodies.1.velocity.linear.0` is the same path).

Used by the Snakefile (to check a sweep's paths before anything runs), by
the scene-variant writer and by the sweep table (fields of summary.json).
"""
import re

_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class PathError(KeyError):
    """A path that does not exist in a document; str() says where it stops."""

    def __str__(self):
        return self.args[0]


def parse(path: str) -> list:
    """The path's steps: str keys and int indices. Raises ValueError on bad syntax."""
    if not isinstance(path, str) or not path:
        raise ValueError(f"a JSON path must be a non-empty string, got {path!r}")
    steps = []
    for part in path.split("."):
        if not part:
            raise ValueError(f"JSON path {path!r}: empty component")
        consumed = 0
        for match in _TOKEN.finditer(part):
            if match.start() != consumed:
                break
            key, index = match.groups()
            if key is not None:
                steps.append(int(key) if key.isdigit() else key)
            else:
                steps.append(int(index))
            consumed = match.end()
        if consumed != len(part):
            raise ValueError(f"JSON path {path!r}: cannot read {part!r}")
    return steps


def _show(steps) -> str:
    text = ""
    for step in steps:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text or "the top level"


def _walk(document, path: str):
    """(parent, last step) of `path` in `document`; every step but the last must exist."""
    steps = parse(path)
    node = document
    for depth, step in enumerate(steps):
        is_last = depth == len(steps) - 1
        where = _show(steps[:depth])
        if isinstance(node, dict):
            if isinstance(step, int):
                step = str(step)
            if step not in node:
                keys = ", ".join(sorted(node)) or "none"
                raise PathError(f"{path}: {where} has no field '{step}' (its fields: {keys})")
        elif isinstance(node, list):
            if not isinstance(step, int):
                raise PathError(f"{path}: {where} is a list; index it with [N], not '{step}'")
            if step >= len(node):
                raise PathError(f"{path}: {where} has {len(node)} elements; [{step}] is past its end")
        else:
            raise PathError(f"{path}: {where} is {type(node).__name__} {node!r}, which has no field '{step}'")
        if is_last:
            return node, step
        node = node[step]
    raise AssertionError("unreachable: parse() returns at least one step")


def get(document, path: str):
    """The value at `path`; PathError naming the path if it does not exist."""
    parent, step = _walk(document, path)
    return parent[step]


def set_existing(document, path: str, value) -> None:
    """Replaces the value at `path`, which must exist (a typo is an error, not a new field)."""
    parent, step = _walk(document, path)
    parent[step] = value
