#pragma once
// Loop subdivision surfaces evaluated exactly (Stam 1998; Kry's thesis 5.1;
// Kry & Pai 3.5): one triangular patch per face of a closed control mesh,
// face (v0, v1, v2) parameterised over the unit triangle with v0 at (0, 0),
// v1 at (1, 0) and v2 at (0, 1).
//  - regular faces (all corners of valence 6): a quartic box spline over 12
//    control vertices (loop_regular_basis.hpp);
//  - faces with one extraordinary vertex (EV): Stam's eigen-decomposition
//    (loop_eigenstructure.hpp), with the parameters rotated so that the EV is at
//    the local origin;
//  - faces with two or three EVs: split into their four sub-patches after one
//    local subdivision (each has at most one EV) and reparameterised
//    consistently (Kry & Pai 3.5).
// Every change of parameters is an affine map whose Jacobian carries the chain
// rule to the derivatives (AffineJetMap), including the sign of odd
// derivatives in the flipped middle sub-triangle.
#include <string>
#include <vector>

#include "reference/surfaces/loop_eigenstructure.hpp"
#include "reference/surfaces/loop_regular_basis.hpp"
#include "reference/surfaces/patch_complex.hpp"
#include "reference/surfaces/triangle_mesh.hpp"

namespace contactref::surfaces {

// How a face's patch is evaluated.
enum class LoopPatchKind { kRegular, kExtraordinary, kSplit };

template <class T>
class LoopSurface {
 public:
  // Validates the mesh (closed, manifold, consistently oriented, finite, no
  // degenerate face, valences 3..kMaxLoopValence) and builds every patch.
  // Throws InputError naming the offending element.
  LoopSurface(const TriangleMesh& mesh, const std::string& name);

  int face_count() const { return int(complex_.patches.size()); }
  const Patch<T>& patch(int face) const { return *complex_.patches[std::size_t(face)]; }
  const PatchComplex<T>& complex() const { return complex_; }
  LoopPatchKind kind(int face) const { return kinds_[std::size_t(face)]; }
  const MeshTopology& topology() const { return topology_; }
  const std::vector<Vec3<T>>& control_points() const { return positions_; }
  // The name given at construction (the mesh file), for messages.
  const std::string& name() const { return name_; }

  // The extraordinary control vertex (valence != 6) at parameter (u, v) of
  // face `face` (a corner of the unit triangle), or -1. The patch's
  // derivatives are not defined there; its limit position and normal are.
  int extraordinary_vertex_at(int face, const T& u, const T& v) const;

  // The limit position and limit normal (unnormalised, outward) of control
  // vertex v, from the limit and tangent masks (independent of the patches);
  // the normal is the cross product of the two limit tangents.
  Vec3<T> limit_position(int vertex) const;
  Vec3<T> limit_normal(int vertex) const;
  std::pair<Vec3<T>, Vec3<T>> limit_tangents(int vertex) const;

 private:
  MeshTopology topology_;
  std::vector<Vec3<T>> positions_;
  PatchComplex<T> complex_;
  std::vector<LoopPatchKind> kinds_;
  std::string name_;
};

// The patch of face `face` of a mesh (any of the three kinds). Exposed for the
// tests and for local meshes.
template <class T>
std::unique_ptr<Patch<T>> make_loop_patch(const MeshTopology& topology, const std::vector<Vec3<T>>& positions, int face,
                                          const std::string& name);

}  // namespace contactref::surfaces
