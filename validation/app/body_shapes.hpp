#pragma once
// Each body's shape, written once beside a simulation's rows, so that a
// viewer or any mesh tool can draw the run (issue 33 item 1): OUT/shapes/
// bodyK.ply for the scene's K-th body and the manifest OUT/shapes.json.
//
// Every shape is in its body's own frame (metres): the frame whose pose
// bodies.csv gives for a free body (origin at the centre of mass), and the
// scene's pose of a fixed body, which the manifest repeats. PLY 1.0 ascii,
// 17 significant digits:
//  - a parametric or Loop surface: the triangles of collision detection's
//    tessellation (reference/dynamics/surface_proximity.hpp SurfaceHierarchy),
//    every point within `bound_m` (the manifest's) of the smooth surface and
//    the other way round, 3e-3 of the radius of a few of its points (T-junctions
//    between triangles of different sizes, within the bound), at most
//    kShapeTriangles triangles (else no file, and the manifest says why),
//    each vertex with the index of the patch it lies on (vertex property
//    `patch`; a triangle's three share theirs; the manifest's `patches`
//    counts the surface's);
//    an unbounded plane: a square of half-side kUnboundedHalfSide about its
//    origin; an infinite circular cylinder: that length of it about its
//    origin, in 64 facets; another unbounded surface (a paraboloid): no
//    file, the manifest says why;
//  - a polyhedron: its vertices and faces as the scene built them;
//  - a point cloud: its points, with their normals (nx, ny, nz) when it has
//    them, and no faces.
// Faces are counter-clockwise seen from outside.
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "validation/scenes/scene.hpp"

namespace contactref::cli {

inline constexpr double kUnboundedHalfSide = 1.0;  // m
inline constexpr std::size_t kShapeTriangles = 500000;  // a surface's cap: beyond it, no file and why

// Writes OUT/shapes/ and OUT/shapes.json; returns the manifest. InputError
// or ComputationError (from open_output and close_output) naming a file that
// cannot be written.
nlohmann::ordered_json write_body_shapes(const std::filesystem::path& out, const scenes::Scene& scene);

}  // namespace contactref::cli
