"""Writes the control meshes used by the surface tests and the loop-evaluation
suite into validation/fixtures/meshes/ (run once; the files are committed):

  icosahedron.obj        20 faces, every vertex of valence 5 (every face has 3 EVs)
  icosphere1.obj         the icosahedron split once (midpoints on the sphere):
                         isolated valence-5 EVs, faces with 0 or 1 EV
  valences_3_to_10.obj   an icosphere split twice, then deterministic edge flips
                         until it has vertices of every valence from 3 to 10
  valences_3_to_10_split.obj  the previous mesh split once: every extraordinary
                         vertex (valences 3..10) now has only regular neighbours,
                         so every valence has faces with exactly one EV
  bowl_b2.obj            Kry's App. B.2 bowl (reconstructed in shared/notes)

Deterministic: no randomness beyond a fixed seed.
"""
import math
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "validation" / "data" / "meshes"


def icosahedron():
    t = (1 + math.sqrt(5)) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    v = [tuple(x / math.sqrt(1 + t * t) for x in p) for p in v]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6),
         (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10),
         (8, 6, 7), (9, 8, 1)]
    return v, f


def split(vertices, faces):
    vertices = list(vertices)
    middle = {}

    def mid(a, b):
        key = (min(a, b), max(a, b))
        if key not in middle:
            p = [(x + y) / 2 for x, y in zip(vertices[a], vertices[b])]
            n = math.sqrt(sum(c * c for c in p))
            vertices.append(tuple(c / n for c in p))
            middle[key] = len(vertices) - 1
        return middle[key]

    out = []
    for a, b, c in faces:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        out += [(a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca)]
    return vertices, out


def valence(faces, n):
    count = [0] * n
    for f in faces:
        for v in f:
            count[v] += 1
    return count


def flip_to_valences(vertices, faces, wanted=range(3, 11), seed=7):
    rng = random.Random(seed)
    faces = [list(f) for f in faces]

    def sub(a, b):
        return [x - y for x, y in zip(a, b)]

    def cross(a, b):
        return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]

    def dot(a, b):
        return sum(x * y for x, y in zip(a, b))

    def outward(f):
        a, b, c = (vertices[i] for i in f)
        n = cross(sub(b, a), sub(c, a))
        centre = [(x + y + z) / 3 for x, y, z in zip(a, b, c)]
        return dot(n, centre) > 0.02 * math.sqrt(dot(n, n))

    for _ in range(200000):
        counts = valence(faces, len(vertices))
        if all(w in counts for w in wanted):
            break
        # edge (p, q) with faces (p, q, r) and (q, p, s) -> (r, s)
        fi = rng.randrange(len(faces))
        k = rng.randrange(3)
        p, q, r = faces[fi][k], faces[fi][(k + 1) % 3], faces[fi][(k + 2) % 3]
        other = [j for j, g in enumerate(faces) if j != fi and any(g[m] == q and g[(m + 1) % 3] == p for m in range(3))]
        gj = other[0]
        g = faces[gj]
        m = [i for i in range(3) if g[i] == q][0]
        s = g[(m + 2) % 3]
        if r == s or any((r in h and s in h) for h in faces):
            continue
        cp, cq, cr, cs = counts[p] - 1, counts[q] - 1, counts[r] + 1, counts[s] + 1
        if min(cp, cq) < 3 or max(cr, cs) > 10:
            continue
        new_f, new_g = [r, p, s], [s, q, r]
        if not (outward(new_f) and outward(new_g)):
            continue
        # prefer flips that move toward a missing valence
        missing = [w for w in wanted if w not in counts]
        if not any(c in missing for c in (cp, cq, cr, cs)) and rng.random() < 0.9:
            continue
        faces[fi], faces[gj] = new_f, new_g
    counts = valence(faces, len(vertices))
    assert all(w in counts for w in wanted), sorted(set(counts))
    return vertices, [tuple(f) for f in faces]


def write_obj(name, vertices, faces, comment):
    with open(OUT / name, "w") as out:
        out.write(f"# {comment}\n# written by scripts/make_test_meshes.py\n")
        for p in vertices:
            out.write("v {:.17g} {:.17g} {:.17g}\n".format(*p))
        for f in faces:
            out.write("f {} {} {}\n".format(*(i + 1 for i in f)))


BOWL = """v -1.0 0.0 1.0
v 0.5 -0.866 1.0
v 0.5 0.866 1.0
v -1.0 0.0 0.0
v 0.5 -0.866 0.0
v 0.5 0.866 0.0
v -2.0 0.0 -1.0
v 1.0 -1.732 -1.0
v 1.0 1.732 -1.0
f 9 8 7
f 4 5 6
f 4 6 3
f 3 1 4
f 6 5 2
f 2 3 6
f 5 4 1
f 1 2 5
f 2 1 7
f 7 8 2
f 1 3 9
f 9 7 1
f 3 2 8
f 8 9 3
"""


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    v, f = icosahedron()
    write_obj("icosahedron.obj", v, f, "regular icosahedron on the unit sphere: 12 vertices of valence 5")
    v1, f1 = split(v, f)
    write_obj("icosphere1.obj", v1, f1, "icosahedron split once, on the unit sphere: isolated valence-5 vertices")
    v2, f2 = split(v1, f1)
    v3, f3 = flip_to_valences(v2, f2)
    write_obj("valences_3_to_10.obj", v3, f3, "icosphere split twice, then edge flips: valences 3 to 10")
    v4, f4 = split(v3, f3)
    write_obj("valences_3_to_10_split.obj", v4, f4, "valences_3_to_10 split once: isolated EVs of valences 3 to 10")
    (OUT / "bowl_b2.obj").write_text(
        "# Kry's thesis App. B.2 bowl, faces as reconstructed in shared/notes/smooth-contact.md section 8\n" + BOWL)


if __name__ == "__main__":
    main()
