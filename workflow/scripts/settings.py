"""The workflow's configuration (workflow/config.yaml, --configfile, --config),
checked and resolved before any job runs: what to run (from the catalogue,
in its order), where, with which binaries, and every sweep's points.

Every problem is a ConfigError that names the key and says what is allowed.
"""
import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import jsonpath


class ConfigError(Exception):
    pass


@dataclass
class Sweep:
    name: str
    scene: Path                         # absolute
    paths: list                         # the set paths, in the config's order
    points: dict                        # point id -> {path: value}
    fields: list                        # summary.json fields in the table
    plot: dict                          # x, y, xscale, yscale


@dataclass
class Animation:
    name: str
    scene: Path                         # absolute
    frames: int
    fps: float
    elevation: float                    # degrees
    azimuth: float                      # degrees


@dataclass
class Settings:
    root: Path                          # the repository
    out: str                            # as given: relative to the working directory, or absolute
    quick: bool
    build: Path
    python: str
    suites: list
    figures: list
    exclusive_figures: list
    first: list                         # suites and figures to start first
    benchmarks: list
    benchmark_args: list
    report: bool
    animations: dict = field(default_factory=dict)  # name -> Animation, in the catalogue's order
    sweeps: dict = field(default_factory=dict)


# PyYAML reads YAML 1.1, where 1e-3 (no dot) is text, not a number: a sweep's
# values that read as numbers are taken as the numbers they spell.
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def _number_if_numeric(value):
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        number = float(value)
        return int(number) if re.fullmatch(r"[-+]?\d+", value.strip()) else number
    return value


def _boolean(config, key) -> bool:
    value = config.get(key)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
        return value.lower() in ("true", "yes", "1")
    raise ConfigError(f"{key}: expected true or false, got {value!r}")


def _selection(config, key, available: list) -> list:
    """`all`, `none` (or an empty list), or a list of names (also as "a,b"), in `available`'s order."""
    value = config.get(key, "all")
    if value in ("all",):
        return list(available)
    if value in ("none", None, "", []):
        return []
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",") if name.strip()]
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ConfigError(f"{key}: expected all, none or a list of names, got {value!r}")
    unknown = [name for name in value if name not in available]
    if unknown:
        raise ConfigError(f"{key}: unknown {', '.join(unknown)}; the catalogue has: {', '.join(available)}")
    return [name for name in available if name in value]


def _python(config, root: Path, build: Path) -> str:
    """config python, else the build's CONTACTREF_PYTHON_FOR_SCRIPTS (the one that imports
    matplotlib), else Debian's /usr/bin/python3."""
    if config.get("python"):
        return str(config["python"])
    cache = build / "CMakeCache.txt"
    if cache.is_file():
        for line in cache.read_text(errors="replace").splitlines():
            if line.startswith("CONTACTREF_PYTHON_FOR_SCRIPTS:INTERNAL="):
                value = line.split("=", 1)[1].strip()
                if value:
                    return value
    return "/usr/bin/python3"


# The table's columns for every run (sweep_table.py), whatever `fields` says.
ALWAYS_COLUMNS = ("status", "message")


def _point_ids(count: int) -> list:
    width = max(3, len(str(count - 1)))
    return [f"p{index:0{width}d}" for index in range(count)]


def _sweep(name: str, spec, root: Path) -> Sweep:
    where = f"sweeps.{name}"
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise ConfigError(f"{where}: a sweep's name is letters, digits, '_', '.' and '-' (it names a folder)")
    if not isinstance(spec, dict):
        raise ConfigError(f"{where}: expected scene, set, fields and plot, got {spec!r}")
    unknown = sorted(set(spec) - {"scene", "set", "fields", "plot"})
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} (known: scene, set, fields, plot)")
    if not isinstance(spec.get("scene"), str):
        raise ConfigError(f"{where}.scene: the scene's JSON file is required (relative to the repository, or absolute)")
    scene = Path(spec["scene"])
    scene = scene if scene.is_absolute() else root / scene
    if not scene.is_file():
        raise ConfigError(f"{where}.scene: {scene} is not a file")
    try:
        document = json.loads(scene.read_text())
    except json.JSONDecodeError as error:
        raise ConfigError(f"{where}.scene: {scene} is not JSON: {error}") from None

    settings = spec.get("set")
    if not isinstance(settings, dict) or not settings:
        raise ConfigError(f"{where}.set: expected JSON paths of the scene, each with a list of values")
    paths, value_lists = [], []
    for path, values in settings.items():
        try:
            jsonpath.get(document, path)
        except ValueError as error:
            raise ConfigError(f"{where}.set: {error}") from None
        except jsonpath.PathError as error:
            raise ConfigError(f"{where}.set: not in the scene {scene}: {error}") from None
        if not isinstance(values, list) or not values:
            raise ConfigError(f"{where}.set.{path}: expected a non-empty list of values, got {values!r}")
        paths.append(path)
        value_lists.append([_number_if_numeric(value) for value in values])
    combinations = list(itertools.product(*value_lists))
    points = dict(zip(_point_ids(len(combinations)), (dict(zip(paths, c)) for c in combinations)))

    fields = spec.get("fields", [])
    if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
        raise ConfigError(f"{where}.fields: expected a list of summary.json paths, got {fields!r}")
    fields = [f for f in dict.fromkeys(fields) if f not in ALWAYS_COLUMNS]
    for f in fields:
        try:
            jsonpath.parse(f)
        except ValueError as error:
            raise ConfigError(f"{where}.fields: {error}") from None

    plot = spec.get("plot")
    if not isinstance(plot, dict) or not isinstance(plot.get("x"), str) or not isinstance(plot.get("y"), str):
        raise ConfigError(f"{where}.plot: expected {{x: one of the set paths, y: a summary.json field}}")
    unknown = sorted(set(plot) - {"x", "y", "xscale", "yscale"})
    if unknown:
        raise ConfigError(f"{where}.plot: unknown key(s) {', '.join(unknown)} (known: x, y, xscale, yscale)")
    if plot["x"] not in paths:
        raise ConfigError(f"{where}.plot.x: {plot['x']} is not one of the set paths ({', '.join(paths)})")
    try:
        jsonpath.parse(plot["y"])
    except ValueError as error:
        raise ConfigError(f"{where}.plot.y: {error}") from None
    for axis in ("xscale", "yscale"):
        if plot.get(axis, "linear") not in ("linear", "log"):
            raise ConfigError(f"{where}.plot.{axis}: linear or log, got {plot[axis]!r}")
    if plot["y"] in ALWAYS_COLUMNS:
        raise ConfigError(f"{where}.plot.y: {plot['y']} is text; plot a number of summary.json")
    if plot["y"] not in fields:
        fields = fields + [plot["y"]]
    plot = {"x": plot["x"], "y": plot["y"], "xscale": plot.get("xscale", "linear"),
            "yscale": plot.get("yscale", "linear")}
    return Sweep(name, scene, paths, points, fields, plot)


def _animations(config, root: Path, catalogue) -> dict:
    """The chosen animations of the catalogue, each scene checked to exist (a stale catalogue fails here)."""
    entries = {a["name"]: a for a in catalogue["animations"]}
    chosen = {}
    for name in _selection(config, "animations", list(entries)):
        entry = entries[name]
        scene = root / entry["scene"]
        if not scene.is_file():
            raise ConfigError(f"animations: {name}'s scene {scene} is not a file (paper_figures/catalogue.json)")
        view = entry.get("view", {})
        chosen[name] = Animation(name, scene, int(entry.get("frames", 100)), float(entry.get("fps", 10)),
                                 float(view.get("elevation", 25)), float(view.get("azimuth", -60)))
    return chosen


def read(config: dict, root: Path) -> Settings:
    known = {"out", "quick", "build", "python", "suites", "figures", "exclusive_figures", "first", "benchmarks",
             "benchmark_args", "report", "animations", "sweeps"}
    unknown = sorted(set(config) - known)
    if unknown:
        raise ConfigError(f"unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    catalogue_file = root / "paper_figures" / "catalogue.json"
    catalogue = json.loads(catalogue_file.read_text())
    out = str(config.get("out") or "")
    if not out:
        raise ConfigError("out: the output folder is required")
    build = Path(str(config.get("build") or "build"))
    build = build if build.is_absolute() else root / build
    figures = _selection(config, "figures", [f["name"] for f in catalogue["figures"]])
    exclusive = config.get("exclusive_figures") or []
    if not isinstance(exclusive, list):
        raise ConfigError(f"exclusive_figures: expected a list of figure names, got {exclusive!r}")
    first = config.get("first") or []
    names = {s["name"] for s in catalogue["suites"]} | {f["name"] for f in catalogue["figures"]}
    if not isinstance(first, list) or any(name not in names for name in first):
        raise ConfigError(f"first: expected a list of suite or figure names of the catalogue, got {first!r}")
    benchmark_args = config.get("benchmark_args") or []
    if isinstance(benchmark_args, str):
        benchmark_args = benchmark_args.split()
    if not isinstance(benchmark_args, list):
        raise ConfigError(f"benchmark_args: expected a list of arguments, got {benchmark_args!r}")
    sweeps = config.get("sweeps") or {}
    if not isinstance(sweeps, dict):
        raise ConfigError(f"sweeps: expected a map from a sweep's name to its scene, set and plot, got {sweeps!r}")
    settings = Settings(
        root=root,
        out=out.rstrip("/") or "/",
        quick=_boolean(config, "quick"),
        build=build,
        python=_python(config, root, build),
        suites=_selection(config, "suites", [s["name"] for s in catalogue["suites"]]),
        figures=figures,
        exclusive_figures=[f for f in exclusive if f in figures],
        first=first,
        benchmarks=_selection(config, "benchmarks", [b["program"] for b in catalogue["benchmarks"]]),
        benchmark_args=[str(a) for a in benchmark_args],
        report=_boolean(config, "report"),
        animations=_animations(config, root, catalogue),
        sweeps={name: _sweep(name, spec, root) for name, spec in sweeps.items()},
    )
    _check_programs(settings)
    return settings


def _check_programs(settings: Settings) -> None:
    """No rule builds the programs: say at once which the build lacks, and what to do."""
    needs_contactref = settings.suites or settings.figures or settings.animations or settings.sweeps
    if needs_contactref and not (settings.build / "contactref").is_file():
        raise ConfigError(f"build: {settings.build / 'contactref'} is missing: build it (scripts/bootstrap.sh) "
                          f"or point `build` at a build folder")
    missing = [p for p in settings.benchmarks if not (settings.build / "benchmarks" / p).is_file()]
    if missing:
        raise ConfigError(f"benchmarks: {', '.join(missing)} not in {settings.build / 'benchmarks'}: build them "
                          f"(scripts/bootstrap.sh with no target builds every one) or choose the programs, "
                          f"e.g. --config benchmarks=none or benchmarks=[bench_surfaces]")
