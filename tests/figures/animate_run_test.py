"""paper_figures/animate_run.py, checked from the pixels of the GIF it writes.

    animate_run_test.py CONTACTREF

- A unit cube seen from straight above (elevation 90, azimuth -90: screen
  right is world x, screen up is world y) whose bodies.csv puts it at x = 0
  at t = 0, at x = 1 and then, in a repeated row at the same time (an
  event's), at x = 3 at t = 1, and at x = 3 turned 45 degrees about z at
  t = 2. Three frames (t = 0, 1, 2): the cube's centre moves by 3 of its
  own widths between frames 0 and 1 (the repeated row's last counts), stays
  put in frame 2, where its width is sqrt(2) times as large (turned), and
  never moves in y. The contact point at t = 1 is red in frames 1 and 2
  only. All measured on the pixels, against the geometry of the rows.
- Two drawings of one run are byte-identical, and so is the drawing of the
  same run with its contact as a samples.bin.
- A real run (`contactref simulate` of the sliding octagon) draws the frames
  asked for, with the contact marker in the last one.
- Damaged runs exit 2 naming the file, the line and what is wrong; absurd
  options exit 2.
Prints every problem; exit 1 if any.
"""
import math
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "paper_figures" / "animate_run.py"

# A unit cube about its centre, six quads (the fan triangulation is used).
CUBE_PLY = (ROOT / "tests" / "data" / "unit_cube_quads.ply").read_text()
TURN = (math.cos(math.pi / 8), 0, 0, math.sin(math.pi / 8))  # 45 degrees about z
BODY_ROWS = ["0,cube,0,0,0,1,0,0,0", "1,cube,1,0,0,1,0,0,0", "1,cube,3,0,0,1,0,0,0",
             "2,cube,3,0,0," + ",".join(f"{q:.17g}" for q in TURN)]


def write_run(folder: Path, body_rows=None, contacts=True) -> Path:
    (folder / "shapes").mkdir(parents=True)
    (folder / "shapes" / "body0.ply").write_text(CUBE_PLY)
    (folder / "shapes.json").write_text('{"bodies": [{"name": "cube", "fixed": false, "file": "shapes/body0.ply"}]}')
    rows = BODY_ROWS if body_rows is None else body_rows
    (folder / "bodies.csv").write_text("time,body,x,y,z,qw,qx,qy,qz\n" + "\n".join(rows) + "\n")
    if contacts:
        (folder / "contacts.csv").write_text("time,px,py,pz\n0.5,,,\n1,3,0,0.5\n")
    return folder


def draw(run: Path, gif: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(run), str(gif), *options],
                          capture_output=True, text=True, timeout=120)


def frames(gif: Path) -> list:
    with Image.open(gif) as image:
        result = []
        for k in range(image.n_frames):
            image.seek(k)
            result.append(np.asarray(image.convert("RGB"), dtype=int))
        return result


def cube_pixels(frame):
    """The cube's pixels (orange in any shade): red well above blue, not the pure red marker."""
    r, g, b = frame[..., 0], frame[..., 1], frame[..., 2]
    return (r - b > 40) & (g > 25) & (g < r)


def red_pixels(frame):
    r, g, b = frame[..., 0], frame[..., 1], frame[..., 2]
    return (r > 200) & (g < 60) & (b < 60)


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    contactref = Path(sys.argv[1])
    problems = []

    def expect(condition, problem):
        if not condition:
            problems.append(problem)
        return condition

    tmp = Path(tempfile.mkdtemp(prefix="contactref-animate-"))
    try:
        run = write_run(tmp / "cube")
        top_view = ("--frames", "3", "--elevation", "90", "--azimuth", "-90")
        result = draw(run, tmp / "cube.gif", *top_view)
        if expect(result.returncode == 0, f"the cube run: exit {result.returncode}: {result.stderr[-1000:]}"):
            images = frames(tmp / "cube.gif")
            expect(len(images) == 3, f"the cube run has {len(images)} frames, asked for 3")
            boxes = []
            for image in images:
                ys, xs = np.nonzero(cube_pixels(image))
                # the width between the outermost pixel centres: the true width to a pixel
                boxes.append((xs.mean(), ys.mean(), xs.max() - xs.min()) if len(xs) else (math.nan,) * 3)
            (x0, y0, w0), (x1, y1, w1), (x2, y2, w2) = boxes
            # frame 0 -> 1: 3 m, the cube is 1 m wide: 3 widths, to 3 pixels of width and one of centre
            expect(abs((x1 - x0) - 3 * w0) < 4, f"the cube moved {(x1 - x0) / w0:.3f} of its widths ({w0} pixels), "
                   f"expected 3")
            expect(abs(x2 - x1) < 1 and abs(y1 - y0) < 1 and abs(y2 - y0) < 1,
                   f"the cube's centre went from ({x0:.1f}, {y0:.1f}) to ({x1:.1f}, {y1:.1f}), ({x2:.1f}, {y2:.1f})")
            expect(abs(w2 - math.sqrt(2) * w0) < 3,
                   f"the turned cube is {w2 / w0:.3f} times as wide, expected sqrt(2)")
            red = [int(red_pixels(image).sum()) for image in images]
            expect(red[0] == 0 and red[1] > 0 and red[2] > 0,
                   f"red contact pixels per frame {red}: expected none at t = 0 (the row in flight is empty), "
                   f"some at t = 1 and t = 2")
            again = draw(run, tmp / "again.gif", *top_view)
            expect(again.returncode == 0 and (tmp / "again.gif").read_bytes() == (tmp / "cube.gif").read_bytes(),
                   "two drawings of one run differ")
            # The same contacts as a samples.bin (the quasi-rigid model's binary
            # form): the same GIF, byte for byte. A step in flight has 0 samples.
            binary = write_run(tmp / "cube_binary", contacts=False)
            (binary / "samples.bin").write_bytes(b"CRSMPL01" + struct.pack("<dI", 0.5, 0) +
                                                 struct.pack("<dI4f", 1.0, 1, 3.0, 0.0, 0.5, 1000.0))
            from_binary = draw(binary, tmp / "binary.gif", *top_view)
            expect(from_binary.returncode == 0 and (tmp / "binary.gif").read_bytes() == (tmp / "cube.gif").read_bytes(),
                   f"the run with samples.bin draws differently: {from_binary.stderr[-500:]}")

        octagon = tmp / "octagon"
        simulate = subprocess.run([str(contactref), "simulate", str(ROOT / "validation/fixtures/scenes/octagon_sliding.json"),
                                   "--out", str(octagon)], capture_output=True, text=True, timeout=300)
        if expect(simulate.returncode == 0, f"simulate octagon_sliding.json: exit {simulate.returncode}"):
            result = draw(octagon, tmp / "octagon.gif", "--frames", "5")
            if expect(result.returncode == 0, f"the octagon run: exit {result.returncode}: {result.stderr[-1000:]}"):
                images = frames(tmp / "octagon.gif")
                expect(len(images) == 5, f"the octagon run has {len(images)} frames, asked for 5")
                expect(red_pixels(images[-1]).sum() > 0, "the octagon's last frame has no contact marker")
                expect(cube_pixels(images[-1]).sum() > 0, "the octagon's last frame does not show the octagon")

        damaged = [
            ("no shapes.json", lambda f: (f / "shapes.json").unlink(), "shapes.json: missing"),
            ("a short row", lambda f: (f / "bodies.csv").write_text("time,body,x,y,z,qw,qx,qy,qz\n0,cube,0,0,0,1,0,0\n"),
             "bodies.csv, line 2: 8 cells, the header has 9"),
            ("a column missing", lambda f: (f / "bodies.csv").write_text("time,body,x,y,z\n0,cube,0,0,0\n"),
             "bodies.csv: column(s) qw, qx, qy, qz missing"),
            ("a NaN", lambda f: (f / "bodies.csv").write_text("time,body,x,y,z,qw,qx,qy,qz\n0,cube,nan,0,0,1,0,0,0\n"),
             "bodies.csv, line 2, column x: 'nan' is not finite"),
            ("time going back", lambda f: (f / "bodies.csv").write_text(
                "time,body,x,y,z,qw,qx,qy,qz\n1,cube,0,0,0,1,0,0,0\n0,cube,0,0,0,1,0,0,0\n"),
             "bodies.csv, line 3: time 0.0 goes back"),
            ("an unknown body", lambda f: (f / "bodies.csv").write_text("time,body,x,y,z,qw,qx,qy,qz\n0,ball,0,0,0,1,0,0,0\n"),
             "bodies.csv, line 2: body 'ball' is not in shapes.json"),
            ("no rows", lambda f: (f / "bodies.csv").write_text("time,body,x,y,z,qw,qx,qy,qz\n"),
             "bodies.csv: a free body has no rows"),
            ("a missing shape", lambda f: (f / "shapes" / "body0.ply").unlink(), "body0.ply: missing"),
            ("a shape's header without its end", lambda f: (f / "shapes" / "body0.ply").write_text(
                "ply\nformat ascii 1.0\nelement vertex 8\n"), "body0.ply: not a PLY: no end_header line"),
            ("a truncated shape", lambda f: (f / "shapes" / "body0.ply").write_text(CUBE_PLY[:CUBE_PLY.index("4 2 3 7 6")]),
             "body0.ply: not a PLY meshio can read"),
            ("a vertex that is text", lambda f: (f / "shapes" / "body0.ply").write_text(
                CUBE_PLY.replace("0.5 0.5 -0.5", "0.5 zz -0.5")), "body0.ply: a vertex is not finite"),
            ("a face past the vertices", lambda f: (f / "shapes" / "body0.ply").write_text(
                CUBE_PLY.replace("4 3 0 4 7", "4 3 0 4 9")), "a face names a vertex it does not have"),
            ("a contact time that is text", lambda f: (f / "contacts.csv").write_text("time,px,py,pz\nsoon,0,0,0\n"),
             "contacts.csv, line 2, column time: 'soon' is not a number"),
            ("a truncated samples.bin", lambda f: (f / "samples.bin").write_bytes(
                b"CRSMPL01" + struct.pack("<dI", 1.0, 2) + bytes(20)), "samples.bin: step record 0: 2 samples need 32 bytes"),
            ("a samples.bin without its magic", lambda f: (f / "samples.bin").write_bytes(b"CRSMPL02"),
             "samples.bin: not a samples file"),
        ]
        for index, (what, damage, message) in enumerate(damaged):
            folder = write_run(tmp / f"damaged{index}")
            damage(folder)
            result = draw(folder, tmp / f"damaged{index}.gif", "--frames", "2")
            expect(result.returncode == 2 and message in result.stderr,
                   f"{what}: exit {result.returncode}, expected 2 and '{message}' in: {result.stderr[-500:]}")
            expect(not (tmp / f"damaged{index}.gif").exists(), f"{what}: a GIF was written")
        for options in (("--frames", "1"), ("--fps", "0"), ("--fps", "nan"), ("--elevation", "91")):
            result = draw(run, tmp / "options.gif", *options)
            expect(result.returncode == 2, f"{' '.join(options)}: exit {result.returncode}, expected 2")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    print(f"animate_run_test: {'passed' if not problems else f'{len(problems)} problem(s)'}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
