#!/usr/bin/env python3
"""Writes uv_sphere_128.off: the 128-face polyhedral sphere of Bouma & Vanecek
(Section 4.2 quotes its Brep-index depths), as a UV sphere of 8 latitude bands
x 16 longitude sectors: 16 triangles at each pole and 6 x 16 = 96 quads
(trapezoids), 114 vertices, 240 edges.

The quads must be planar EXACTLY in double, since robust_geometry checks
planarity with exact predicates and no tolerance. A trapezoid has the corners
(r_i u_j, z_i), (r_i+1 u_j, z_i+1), (r_i+1 u_j+1, z_i+1), (r_i u_j+1, z_i):
its two slanted edges meet on the z axis, so the four corners are coplanar for
any ring radii r and directions u, provided r * u is stored exactly. So r_i,
z_i and the coordinates of u_j are rounded to multiples of 2^-24 (at most 25
significant bits each), whose products (at most 50 bits) are exact doubles.
The vertices are then within 6e-8 of the unit sphere.

Run: python3 make_uv_sphere.py > uv_sphere_128.off
"""
import math

BANDS, SECTORS = 8, 16


def q(x):
    return round(x * 2**24) / 2**24


directions = [(q(math.cos(2 * math.pi * j / SECTORS)), q(math.sin(2 * math.pi * j / SECTORS)))
              for j in range(SECTORS)]
rings = [(q(math.sin(math.pi * i / BANDS)), q(math.cos(math.pi * i / BANDS))) for i in range(1, BANDS)]

vertices = [(0.0, 0.0, 1.0)]
for r, z in rings:
    for ux, uy in directions:
        vertices.append((r * ux, r * uy, z))  # exact: 25-bit x 25-bit products
vertices.append((0.0, 0.0, -1.0))
south = len(vertices) - 1


def ring(i, j):  # vertex j of ring i (1..BANDS-1)
    return 1 + (i - 1) * SECTORS + j % SECTORS


faces = []
for j in range(SECTORS):
    faces.append((0, ring(1, j), ring(1, j + 1)))
for i in range(1, BANDS - 1):
    for j in range(SECTORS):
        faces.append((ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j + 1)))
for j in range(SECTORS):
    faces.append((south, ring(BANDS - 1, j + 1), ring(BANDS - 1, j)))

print("OFF")
print("# UV sphere, 8 latitude bands x 16 longitude sectors: 128 faces (32 triangles at the poles,")
print("# 96 planar quads), counter-clockwise seen from outside. Written by make_uv_sphere.py.")
print(len(vertices), len(faces), 240)
for v in vertices:
    print(" ".join(repr(c) for c in v))
for f in faces:
    print(len(f), " ".join(str(i) for i in f))
