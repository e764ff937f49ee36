#pragma once
// An independent oracle for the Loop surfaces of reference/surfaces:
// OpenSubdiv 3.5's Bfr evaluates the limit surface of a closed triangle mesh
// face by face. It is a separate implementation (Pixar's subdivision rules,
// patch basis and adaptive refinement), so agreement with it checks ours.
//  - A face whose corners all have valence 6 is one quartic box-spline patch:
//    Bfr evaluates it exactly.
//  - A face with an extraordinary corner is refined adaptively (two levels);
//    the sub-triangles away from extraordinary vertices are exact box splines,
//    the corner sub-triangle at an extraordinary vertex (barycentric
//    coordinate of that corner above 3/4) is approximated by a Gregory
//    triangle that interpolates the limit point and tangent plane there.
//    Its derivatives are those of the Bezier triangle frozen at (u, v): an
//    approximation unless OpenSubdiv was built with
//    OPENSUBDIV_GREGORY_EVAL_TRUE_DERIVATIVES (Debian's is not).
// Bfr gives derivatives up to second order only, and on faces with an
// extraordinary corner OpenSubdiv 3.5.0 returns the second derivatives with
// the wrong sign in the sub-triangles its refinement rotates (the middle ones):
// they are the negated finite differences of its own first derivatives there
// (consistent with Far's patch-basis scaling, derivSign * d1Scale^2 with
// d1Scale already signed). Positions and first derivatives are right.
//
// Parameterisation: Bfr's triangle has corner 0 at (0, 0), corner 1 at (1, 0)
// and corner 2 at (0, 1) (Bfr::Parameterization), the same as
// reference/surfaces' Loop patches, so (u, v) passes through unchanged.
//
// OpenSubdiv stays behind a pointer to the implementation: only the .cpp
// includes it.
#include <memory>

#include "reference/surfaces/triangle_mesh.hpp"

namespace contactref::oracles {

// The limit surface at one parameter point: position and partial derivatives
// to second order.
struct OpenSubdivJet {
  Vec3<double> position, du, dv, duu, duv, dvv;
};

class OpenSubdivLoopEvaluator {
 public:
  // Builds OpenSubdiv's topology and one Bfr surface per face. Throws
  // InputError when a face has a vertex index out of range, when OpenSubdiv
  // refuses the topology, or when a face has no limit surface (a face at a
  // boundary: the mesh must be closed).
  explicit OpenSubdivLoopEvaluator(const surfaces::TriangleMesh& mesh);
  ~OpenSubdivLoopEvaluator();
  OpenSubdivLoopEvaluator(OpenSubdivLoopEvaluator&&) noexcept;
  OpenSubdivLoopEvaluator& operator=(OpenSubdivLoopEvaluator&&) noexcept;

  int face_count() const;
  // Whether Bfr represents the face as one regular box-spline patch.
  bool is_regular(int face) const;
  // The limit surface of `face` at (u, v) in the closed unit triangle. Throws
  // InputError for a face index out of range or a point outside the triangle.
  OpenSubdivJet evaluate(int face, double u, double v) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace contactref::oracles
