#pragma once
// One step of Loop subdivision of a (possibly open) triangle mesh, as weights:
// each new vertex is a combination of old vertices. New vertices whose
// stencil is incomplete (on or next to the boundary of an open local mesh)
// are marked invalid. Used on small local meshes to derive the subdivision
// matrices of Stam's evaluation, and to split faces with several
// extraordinary vertices.
#include <utility>
#include <vector>

#include "reference/surfaces/triangle_mesh.hpp"

namespace contactref::surfaces {

template <class T>
struct SubdivisionStep {
  // New vertices: v (even, the old vertex v) for v < old_count, then one per
  // undirected edge (odd).
  int old_count = 0;
  std::vector<std::vector<std::pair<int, T>>> weights;  // empty: invalid
  std::vector<std::array<int, 3>> faces;                  // 4 per old face, same orientation
  // For old face f = (a, b, c): the new ids of a', b', c', m_ab, m_bc, m_ca.
  std::vector<std::array<int, 6>> face_points;

  bool valid(int v) const { return !weights[std::size_t(v)].empty(); }
  // sum_i w_i x_i over old positions x.
  template <class Position>
  Position apply(int v, const std::vector<Position>& old_positions) const {
    Position sum = T(0) * old_positions[0];
    for (const auto& [index, w] : weights[std::size_t(v)]) sum += w * old_positions[std::size_t(index)];
    return sum;
  }
};

template <class T>
SubdivisionStep<T> loop_subdivide(const MeshTopology& topology);

// The control vertices of a Loop patch over face (p, q, r), in the canonical
// order: p, then the ring of p counter-clockwise from q (N = valence(p)
// vertices, so q and r come first), then the five vertices that the rings of
// q and r add, at lattice positions (2,-1), (2,0), (1,1), (0,2), (-1,2) when
// p = (0,0), q = (1,0), r = (0,1). K = N + 6; N = 6 gives the 12 control
// vertices of a regular patch. q and r must be regular (valence 6) interior
// vertices. Throws InputError if the neighbourhood is incomplete.
std::vector<int> loop_patch_neighbourhood(const MeshTopology& topology, int p, int q, int r);

}  // namespace contactref::surfaces
