#pragma once
// The point-sampled surfaces of Pauly et al. Section 2.2: samples with unit
// outward normals. They come from a point cloud with normals (PLY or XYZ,
// core/mesh_io.hpp) or are sampled from a triangle mesh (or any surface given
// as dense candidate samples) as a Poisson-disk set: no two samples closer
// than the spacing, every candidate within the spacing of a sample.
#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "core/mesh_io.hpp"

namespace contactref::quasi_rigid {

struct SurfaceSamples {
  std::string name = "samples";
  std::vector<Eigen::Vector3d> points;   // m
  std::vector<Eigen::Vector3d> normals;  // unit, outward; one per point
};

// InputError naming the samples and the sample: no sample, a count of normals
// that differs from the points', a non-finite coordinate, a normal that is
// zero, not finite, or (tolerance 1e-6) not of unit length.
void check_samples(const SurfaceSamples& samples);

// The cloud's points with their normals normalised. InputError naming the
// cloud (and the source line where it has one): no point, no normals (a
// cloud read without them), a non-finite coordinate, a zero normal.
SurfaceSamples surface_samples(const PointCloud& cloud);

// The greedy Poisson-disk subset of the candidates, taken in their order: a
// candidate is kept unless a kept one lies closer than `spacing` (m). So no
// two samples are closer than the spacing, and every candidate lies within it
// of a sample. Shuffle the candidates first for blue noise. InputError: the
// candidates' own (check_samples) or a spacing not finite and > 0.
SurfaceSamples poisson_disk_subset(const SurfaceSamples& candidates, double spacing);

// Samples of a triangle mesh's faces (polygons fanned into triangles) with
// the faces' normals, oriented by the faces' order (counter-clockwise seen
// from outside): `oversampling` uniform candidates per spacing^2 of area,
// drawn by area from a fixed-seed mt19937_64 (the same samples on every
// platform), then the Poisson-disk subset. InputError naming the mesh: no
// face, an index out of range, a degenerate (zero-area) face, a spacing not
// finite and > 0, oversampling below 1, or more than 50 million candidates.
SurfaceSamples sample_mesh(const PolygonSoup& mesh, double spacing, double oversampling = 10,
                           std::uint64_t seed = 1);

// Samples of the sphere |x - centre| = radius with its exact normals: uniform
// candidates (z and the azimuth uniform, Archimedes), then the Poisson-disk
// subset, as sample_mesh. InputError as sample_mesh's, and a radius or
// centre not finite, or a radius not > 0.
SurfaceSamples sample_sphere(const Eigen::Vector3d& centre, double radius, double spacing, double oversampling = 10,
                             std::uint64_t seed = 1);

// A double uniform in [0, 1) from the top 53 bits of one draw (the same on
// every platform, unlike std::uniform_real_distribution).
double unit_uniform(std::uint64_t draw);

}  // namespace contactref::quasi_rigid
