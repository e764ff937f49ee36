#include "robust_geometry/back_face_culling.hpp"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Interval_nt.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace contactref::robust_geometry {

namespace {

using I = CGAL::Interval_nt<false>;  // requires Protect_FPU_rounding
using IVec = std::array<I, 3>;

IVec cross(const IVec& a, const IVec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
I dot(const IVec& a, const IVec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

}  // namespace

EntityMask cull_back_faces(const Polyhedron& b, const RigidPose<double>& pose_b, const Vector6d& twist_b,
                           double margin) {
  if (!twist_b.allFinite()) throw InputError("twist_b: has a non-finite entry");
  if (!(margin >= 0) || !std::isfinite(margin))
    throw InputError("culling margin must be finite and >= 0 (it is " + std::to_string(margin) + ")");

  CGAL::Protect_FPU_rounding<true> protect;
  const Eigen::Matrix4d& E = pose_b.matrix();
  const auto transform = [&](const std::array<I, 3>& x, bool translate) {
    IVec out;
    for (int r = 0; r < 3; ++r) {
      I sum = translate ? I(E(r, 3)) : I(0);
      for (int c = 0; c < 3; ++c) sum += I(E(r, c)) * x[std::size_t(c)];
      out[std::size_t(r)] = sum;
    }
    return out;
  };
  const IVec omega{I(twist_b[0]), I(twist_b[1]), I(twist_b[2])};
  const IVec v{I(twist_b[3]), I(twist_b[4]), I(twist_b[5])};
  std::vector<IVec> points;
  for (const Eigen::Vector3d& x : b.vertices()) points.push_back(transform({I(x.x()), I(x.y()), I(x.z())}, true));

  EntityMask keep;
  keep.faces.assign(std::size_t(b.face_count()), true);
  for (int f = 0; f < b.face_count(); ++f) {
    const auto& plane = b.exact_plane(f);
    const IVec n = transform({plane.a().approx(), plane.b().approx(), plane.c().approx()}, false);
    const I length = CGAL::sqrt(dot(n, n));
    const bool away = std::all_of(b.face(f).begin(), b.face(f).end(), [&](int vertex) {
      const IVec& p = points[std::size_t(vertex)];
      const IVec w = cross(omega, p);
      const I speed = (dot(v, n) + dot(w, n)) / length;  // p' . n_f
      return speed.sup() < -margin;
    });
    keep.faces[std::size_t(f)] = !away;
  }
  keep.edges.assign(std::size_t(b.edge_count()), true);
  for (int e = 0; e < b.edge_count(); ++e) {
    const auto& faces = b.edge(e).faces;
    keep.edges[std::size_t(e)] = keep.faces[std::size_t(faces[0])] || keep.faces[std::size_t(faces[1])];
  }
  keep.vertices.assign(std::size_t(b.vertex_count()), true);
  for (int v_index = 0; v_index < b.vertex_count(); ++v_index) {
    const auto& faces = b.vertex_faces(v_index);
    keep.vertices[std::size_t(v_index)] =
        std::any_of(faces.begin(), faces.end(), [&](int f) { return keep.faces[std::size_t(f)]; });
  }
  return keep;
}

std::array<int, 3> kept_counts(const EntityMask& mask) {
  const auto count = [](const std::vector<bool>& m) { return int(std::count(m.begin(), m.end(), true)); };
  return {count(mask.vertices), count(mask.edges), count(mask.faces)};
}

}  // namespace contactref::robust_geometry
