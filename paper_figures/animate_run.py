"""Draws a `contactref simulate` run as an animated GIF, from the files the run
viewer reads (shapes.json, its PLY shapes, bodies.csv, and contacts.csv or
the quasi-rigid model's samples.bin): the bodies at evenly spaced times,
each free body's centre-of-mass path so far, and the contact points of the
last contact row at or before each time.

    animate_run.py RUN_DIR OUT.gif [--frames N] [--fps F] [--elevation DEG]
                   [--azimuth DEG] [--title TEXT]

The camera is orthographic, looking at the region the free bodies visit
(their centre-of-mass paths widened by their sizes) from the given elevation
and azimuth (degrees; azimuth from the world x axis towards y); the fixed
bodies are drawn where they fall in that window. Faces are shaded by the
angle between their normal and a light beside the camera, a tessellated
surface's patches in alternate tones so that turning shows. The fixed bodies
are drawn first and the free ones over them, each group's faces back to
front (the painter's algorithm): a floor's few large faces would otherwise
cut through a body lying on it, at the price that a fixed body never hides a
free one. A body's pose at a frame's time is that of its last row at or
before the time, as the viewer does (a row repeated at one time, an
event's, counts once: its last). The GIF is byte-identical run to run (Agg
and Pillow are deterministic).

Bad input (a missing file, a column missing, no rows, a shape file that is
not a PLY of points and faces) exits 2 naming the file and what is wrong.
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.animation as animation  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import meshio  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

POSE_COLUMNS = ("time", "body", "x", "y", "z", "qw", "qx", "qy", "qz")
FREE_COLOURS = ((0.85, 0.45, 0.15), (0.2, 0.5, 0.8), (0.3, 0.65, 0.3), (0.65, 0.35, 0.7), (0.75, 0.7, 0.2))
FIXED_COLOUR = (0.72, 0.72, 0.72)


class RunError(Exception):
    pass


def read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise RunError(f"{path}: missing (is this the folder of a `contactref simulate` run?)") from None
    except json.JSONDecodeError as error:
        raise RunError(f"{path}: not JSON: {error}") from None


def read_rows(path: Path, required):
    """The CSV's header and rows (lists of text); every required column present."""
    try:
        with path.open(newline="") as stream:
            rows = list(csv.reader(stream))
    except FileNotFoundError:
        raise RunError(f"{path}: missing") from None
    if not rows:
        raise RunError(f"{path}: empty (no header)")
    header, body = rows[0], rows[1:]
    missing = [name for name in required if name not in header]
    if missing:
        raise RunError(f"{path}: column(s) {', '.join(missing)} missing from the header")
    for line, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise RunError(f"{path}, line {line}: {len(row)} cells, the header has {len(header)}")
    return header, body


def number(path: Path, line: int, column: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RunError(f"{path}, line {line}, column {column}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise RunError(f"{path}, line {line}, column {column}: '{text}' is not finite")
    return value


def rotation(qw, qx, qy, qz) -> np.ndarray:
    q = np.array([qw, qx, qy, qz]) / math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz)
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


class Body:
    def __init__(self, run: Path, entry: dict):
        self.name = entry["name"]
        self.fixed = bool(entry.get("fixed"))
        path = run / entry["file"]
        try:
            with path.open("rb") as stream:
                head = stream.read(1 << 16)
        except FileNotFoundError:
            raise RunError(f"{path}: missing (named by {run / 'shapes.json'})") from None
        if b"\nend_header" not in head:  # meshio 7 reads a header without its end for ever
            raise RunError(f"{path}: not a PLY: no end_header line in its first 64 KiB")
        try:
            mesh = meshio.read(path, file_format="ply")
        except Exception as error:  # meshio raises its own errors and ValueError for a damaged file
            raise RunError(f"{path}: not a PLY meshio can read: {error}") from None
        self.points_b = np.asarray(mesh.points, dtype=float)[:, :3]
        # Faces of any size (the boxes' quads, the prisms' caps) as triangle fans.
        triangles = [np.asarray(cells.data)[:, [0, k, k + 1]] for cells in mesh.cells
                     if np.ndim(cells.data) == 2 for k in range(1, np.shape(cells.data)[1] - 1)]
        self.triangles = np.concatenate(triangles).astype(int) if triangles else np.zeros((0, 3), dtype=int)
        # A tessellated surface's faces alternate in tone by patch (its PLY's
        # vertex property `patch`), so that a body's turning shows.
        patch = mesh.point_data.get("patch")
        self.tone = np.where(np.asarray(patch)[self.triangles[:, 0]] % 2 == 1, 0.8, 1.0) \
            if patch is not None and self.triangles.size else np.ones(len(self.triangles))
        if not np.all(np.isfinite(self.points_b)):
            raise RunError(f"{path}: a vertex is not finite")
        if self.triangles.size and (self.triangles.min() < 0 or self.triangles.max() >= len(self.points_b)):
            raise RunError(f"{path}: a face names a vertex it does not have")
        pose = np.array(entry.get("pose_w_b", np.eye(4)), dtype=float)
        self.fixed_R, self.fixed_x = pose[:3, :3], pose[:3, 3]
        self.size = float(np.max(np.linalg.norm(self.points_b, axis=1))) if len(self.points_b) else 0.0
        self.times, self.positions, self.rotations = [], [], []

    def pose_at(self, t: float):
        if self.fixed:
            return self.fixed_R, self.fixed_x
        k = max(0, int(np.searchsorted(self.times, t, side="right")) - 1)
        return self.rotations[k], self.positions[k]


def read_run(run: Path):
    shapes = read_json(run / "shapes.json")
    bodies = [Body(run, entry) for entry in shapes.get("bodies", [])]
    if not bodies:
        raise RunError(f"{run / 'shapes.json'}: no bodies")
    by_name = {body.name: body for body in bodies}
    path = run / "bodies.csv"
    header, rows = read_rows(path, POSE_COLUMNS)
    column = {name: header.index(name) for name in POSE_COLUMNS}
    for line, row in enumerate(rows, start=2):
        body = by_name.get(row[column["body"]])
        if body is None:
            raise RunError(f"{path}, line {line}: body '{row[column['body']]}' is not in shapes.json")
        values = {name: number(path, line, name, row[column[name]]) for name in POSE_COLUMNS if name != "body"}
        if body.times and values["time"] < body.times[-1]:
            raise RunError(f"{path}, line {line}: time {values['time']} goes back")
        if body.times and values["time"] == body.times[-1]:  # an event's repeated row: its last counts
            body.times.pop(), body.positions.pop(), body.rotations.pop()
        body.times.append(values["time"])
        body.positions.append(np.array([values["x"], values["y"], values["z"]]))
        body.rotations.append(rotation(values["qw"], values["qx"], values["qy"], values["qz"]))
    free = [body for body in bodies if not body.fixed]
    if not free or any(not body.times for body in free):
        raise RunError(f"{path}: a free body has no rows")
    return bodies, read_contacts(run)


def read_samples(path: Path):
    """(times, points per time) of the quasi-rigid model's samples.bin
    (validation/app/samples_file.hpp: "CRSMPL01", then per step its time as
    float64, its count n as uint32 and n x (x, y, z, traction) as float32,
    little-endian)."""
    data = path.read_bytes()
    if data[:8] != b"CRSMPL01":
        raise RunError(f"{path}: not a samples file (it does not start with CRSMPL01)")
    times, points, at = [], [], 8
    while at < len(data):
        if len(data) - at < 12:
            raise RunError(f"{path}: step record {len(times)} at byte {at}: truncated")
        t = float(np.frombuffer(data, "<f8", 1, at)[0])
        count = int(np.frombuffer(data, "<u4", 1, at + 8)[0])
        at += 12
        if (len(data) - at) // 16 < count:
            raise RunError(f"{path}: step record {len(times)}: {count} samples need {16 * count} bytes (a truncated file)")
        record = np.frombuffer(data, "<f4", 4 * count, at).reshape(count, 4).astype(float)
        if not (math.isfinite(t) and np.all(np.isfinite(record))) or (times and t < times[-1]):
            raise RunError(f"{path}: step record {len(times)}: a time or sample that is not finite, or time going back")
        times.append(t), points.append(record[:, :3])
        at += 16 * count
    return times, points


def read_contacts(run: Path):
    """(times, points per time) of contacts.csv, if the run wrote one: the world
    point columns px, py, pz (the smooth model) or x, y, z (the others); rows
    with empty cells (the smooth model in flight) are skipped. The
    quasi-rigid model's samples.bin instead, if the run wrote that."""
    if (run / "samples.bin").exists():
        return read_samples(run / "samples.bin")
    path = run / "contacts.csv"
    if not path.exists():
        return [], []
    header, rows = read_rows(path, ("time",))
    names = ("px", "py", "pz") if "px" in header else ("x", "y", "z")
    if any(name not in header for name in names):
        raise RunError(f"{path}: no contact point columns (px, py, pz or x, y, z)")
    columns = [header.index(name) for name in ("time",) + names]
    times, points = [], []
    for line, row in enumerate(rows, start=2):
        cells = [row[c] for c in columns]
        t = number(path, line, "time", cells[0])
        if times and t < times[-1]:
            raise RunError(f"{path}, line {line}: time {t} goes back")
        if not times or t != times[-1]:
            times.append(t), points.append([])
        if all(cells[1:]):
            points[-1].append([number(path, line, name, cell) for name, cell in zip(names, cells[1:])])
    return times, [np.array(p).reshape(-1, 3) for p in points]


class Camera:
    """Orthographic: screen right, screen up and towards-the-camera axes."""

    def __init__(self, elevation_deg: float, azimuth_deg: float):
        e, a = math.radians(elevation_deg), math.radians(azimuth_deg)
        self.toward = np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])
        self.right = np.array([-math.sin(a), math.cos(a), 0.0])
        self.up = np.cross(self.toward, self.right)
        light = self.toward + 0.6 * self.up + 0.4 * self.right
        self.light = light / np.linalg.norm(light)

    def screen(self, points_w: np.ndarray) -> np.ndarray:
        return np.stack([points_w @ self.right, points_w @ self.up], axis=1)


def window(bodies, camera: Camera, times):
    """(x limits, y limits) on screen: where the free bodies go, padded."""
    corners = []
    for body in bodies:
        if body.fixed:
            continue
        path = np.array([body.pose_at(t)[1] for t in times])
        for dx in (-1, 1):
            for dy in (-1, 1):
                corners.append(camera.screen(path) + body.size * np.array([dx, dy]))
    corners = np.concatenate(corners)
    low, high = corners.min(axis=0), corners.max(axis=0)
    centre, half = (low + high) / 2, (high - low).max() / 2 * 1.15
    return (centre[0] - half * 4 / 3, centre[0] + half * 4 / 3), (centre[1] - half, centre[1] + half)


def frame_polygons(bodies, colours, camera: Camera, t: float):
    """Every triangle on screen, the fixed bodies' first, each group back to
    front, and its shaded colour."""
    polygons, depths, layers, shades = [], [], [], []
    for body, colour in zip(bodies, colours):
        if not body.triangles.size:
            continue
        R, x = body.pose_at(t)
        points_w = body.points_b @ R.T + x
        triangles_w = points_w[body.triangles]
        normals = np.cross(triangles_w[:, 1] - triangles_w[:, 0], triangles_w[:, 2] - triangles_w[:, 0])
        lengths = np.linalg.norm(normals, axis=1)
        lengths[lengths == 0] = 1
        light = np.abs(normals @ camera.light) / lengths  # two-sided: open surfaces show both sides
        polygons.append(camera.screen(triangles_w.reshape(-1, 3)).reshape(-1, 3, 2))
        depths.append(triangles_w.mean(axis=1) @ camera.toward)
        layers.append(np.full(len(triangles_w), 0 if body.fixed else 1))
        shades.append(np.outer((0.35 + 0.65 * light) * body.tone, colour))
    polygons, shades = np.concatenate(polygons), np.concatenate(shades)
    order = np.lexsort((np.concatenate(depths), np.concatenate(layers)))  # by layer, then depth
    return polygons[order], shades[order]


def point_clouds(bodies, colours, camera: Camera, t: float):
    """The bodies without faces (point clouds): their points on screen and colours."""
    clouds = []
    for body, colour in zip(bodies, colours):
        if body.triangles.size or not len(body.points_b):
            continue
        R, x = body.pose_at(t)
        clouds.append((camera.screen(body.points_b @ R.T + x), colour))
    return clouds


def animate(run: Path, out: Path, frames: int, fps: float, camera: Camera, title: str) -> None:
    bodies, (contact_times, contact_points) = read_run(run)
    free = [body for body in bodies if not body.fixed]
    start, end = min(b.times[0] for b in free), max(b.times[-1] for b in free)
    times = np.linspace(start, end, frames) if end > start else np.full(frames, start)
    colours, palette = [], iter(FREE_COLOURS * len(bodies))
    for body in bodies:
        colours.append(FIXED_COLOUR if body.fixed else next(palette))
    xlim, ylim = window(bodies, camera, np.linspace(start, end, 200))

    fig, ax = plt.subplots(figsize=(4.8, 3.6), dpi=100)
    ax.set_xlim(*xlim), ax.set_ylim(*ylim), ax.set_aspect("equal"), ax.axis("off")
    faces = PolyCollection([], edgecolors="none", antialiaseds=False)
    ax.add_collection(faces)
    clouds = [ax.scatter([], [], s=1, color=colour) for _, colour in point_clouds(bodies, colours, camera, start)]
    paths = [ax.plot([], [], lw=0.8, color="k", alpha=0.6)[0] for _ in free]
    contacts = ax.scatter([], [], s=6, color="red", zorder=5)
    label = ax.text(0.01, 0.01, "", transform=ax.transAxes, fontsize=8)
    ax.set_title(title, fontsize=9)

    def draw(k):
        t = times[k]
        polygons, shades = frame_polygons(bodies, colours, camera, t) if any(b.triangles.size for b in bodies) \
            else (np.zeros((0, 3, 2)), np.zeros((0, 3)))
        faces.set_verts(polygons)
        faces.set_facecolor(shades)
        for scatter, (points, _) in zip(clouds, point_clouds(bodies, colours, camera, t)):
            scatter.set_offsets(points)
        for line, body in zip(paths, free):
            upto = np.searchsorted(body.times, t, side="right")
            path = camera.screen(np.array(body.positions[:max(1, upto)]))
            line.set_data(path[:, 0], path[:, 1])
        k_contact = int(np.searchsorted(contact_times, t, side="right")) - 1
        points = contact_points[k_contact] if k_contact >= 0 else np.zeros((0, 3))
        contacts.set_offsets(camera.screen(points) if len(points) else np.zeros((0, 2)))
        label.set_text(f"t = {t:.2f} s")
        return [faces, contacts, label, *paths, *clouds]

    movie = animation.FuncAnimation(fig, draw, frames=frames, blit=False)
    movie.save(out, writer=animation.PillowWriter(fps=fps))
    plt.close(fig)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--fps", type=float, default=10)
    parser.add_argument("--elevation", type=float, default=25)
    parser.add_argument("--azimuth", type=float, default=-60)
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    if not 2 <= args.frames <= 2000:
        parser.error(f"--frames {args.frames}: between 2 and 2000")
    if not (math.isfinite(args.fps) and 0 < args.fps <= 100):
        parser.error(f"--fps {args.fps}: in (0, 100]")
    if not (math.isfinite(args.elevation) and -90 <= args.elevation <= 90 and math.isfinite(args.azimuth)):
        parser.error("--elevation in [-90, 90] degrees and a finite --azimuth")
    try:
        animate(args.run, args.out, args.frames, args.fps, Camera(args.elevation, args.azimuth), args.title)
    except RunError as error:
        print(f"animate_run: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
