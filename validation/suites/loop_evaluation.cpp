#include "validation/suites/loop_evaluation.hpp"

#include <fmt/format.h>

#include <fstream>
#include <random>

#include "reference/surfaces/loop_surface.hpp"
#include "validation/build_info.hpp"
#include "validation/oracles/surface_roundoff.hpp"
#include "validation/oracles/opensubdiv_loop.hpp"

namespace contactref::validation {
namespace {

namespace su = contactref::surfaces;

const char* const kMeshes[] = {"bowl_b2.obj", "icosahedron.obj", "valences_3_to_10.obj"};

su::TriangleMesh suite_mesh(const std::string& name) {
  return su::read_triangle_mesh(std::filesystem::path(build_info::source_dir) / "validation/fixtures/meshes" / name);
}

// Points of a face: near each corner, near edge midpoints, and seeded interior points.
std::vector<std::pair<double, double>> face_points(std::mt19937_64& rng, int interior) {
  std::vector<std::pair<double, double>> points = {{1e-3, 2e-3}, {2e-6, 1e-6}, {0.997, 1e-3}, {2e-3, 0.996}, {0.49, 0.02}, {0.02, 0.49}, {0.49, 0.49}};
  std::uniform_real_distribution<double> uniform(0.01, 0.98);
  for (int n = 0; n < interior; ++n) {
    const double u = uniform(rng);
    points.emplace_back(u, std::uniform_real_distribution<double>(0.005, 0.99 - u)(rng));
  }
  return points;
}

#if CONTACTREF_HAS_REAL50  // the 50-digit referee: release build only (core/scalar.hpp)
// max over points of |d_k - difference of d_(k-1)| / max(1, |jet|) per order,
// in 50 digits (central differences with h = 1e-15).
std::array<double, 4> finite_difference_errors(const su::LoopSurface<Real50>& surface, std::mt19937_64& rng, int stride,
                                               int interior) {
  std::array<double, 4> worst{0, 0, 0, 0};
  const Real50 h("1e-15");
  for (int f = 0; f < surface.face_count(); f += stride) {
    const su::Patch<Real50>& patch = surface.patch(f);
    for (const auto& [u, v] : face_points(rng, interior)) {
      const Real50 s(u), t(v);
      const auto jet = patch.evaluate(s, t);
      const auto ds = ((patch.evaluate(s + h, t).d - patch.evaluate(s - h, t).d) / (2 * h)).eval();
      const auto dt = ((patch.evaluate(s, t + h).d - patch.evaluate(s, t - h).d) / (2 * h)).eval();
      const Real50 size = std::max(Real50(1), jet.d.cwiseAbs().maxCoeff());
      for (int k = 1; k < su::kJetSize; ++k) {
        const int i = su::kJetOrders[std::size_t(k)][0], j = su::kJetOrders[std::size_t(k)][1];
        const auto reference = i > 0 ? ds.col(su::jet_index(i - 1, j)) : dt.col(su::jet_index(i, j - 1));
        const double error = double((jet.d.col(k) - reference).cwiseAbs().maxCoeff() / size);
        worst[std::size_t(i + j)] = std::max(worst[std::size_t(i + j)], error);
      }
    }
  }
  return worst;
}
#endif

using oracles::evaluation_roundoff;
using oracles::normal_sensitivity;

double control_size(const su::TriangleMesh& mesh) {
  double size = 0;
  for (const auto& x : mesh.vertices) size = std::max(size, x.cwiseAbs().maxCoeff());
  return size;
}

struct Continuity {
  double position = 0, normal = 0;
  double normal_sensitivity = 0;  // max over the points compared
};

Continuity continuity_jumps(const su::LoopSurface<double>& surface) {
  Continuity worst;
  const auto& polygon = surface.patch(0).domain().polygon;
  for (int f = 0; f < surface.face_count(); ++f) {
    for (int e = 0; e < 3; ++e) {
      const su::EdgeLink link = surface.complex().links[std::size_t(f)][std::size_t(e)];
      for (double alpha : {0.01, 0.25, 0.5, 0.75, 0.99}) {
        const auto x = polygon[std::size_t(e)] + alpha * (polygon[std::size_t((e + 1) % 3)] - polygon[std::size_t(e)]);
        const double beta = su::PatchComplex<double>::neighbour_fraction(alpha);
        const auto& a = polygon[std::size_t(link.edge)];
        const auto y = a + beta * (polygon[std::size_t((link.edge + 1) % 3)] - a);
        const auto j1 = surface.patch(f).evaluate(x.x(), x.y()), j2 = surface.patch(link.patch).evaluate(y.x(), y.y());
        worst.position = std::max(worst.position, (j1.c() - j2.c()).norm());
        const Vec3<double> n1 = j1.c_s().cross(j1.c_t()).normalized(), n2 = j2.c_s().cross(j2.c_t()).normalized();
        worst.normal = std::max(worst.normal, n1.dot(n2) > 0 ? n1.cross(n2).norm() : 2.0);
        worst.normal_sensitivity = std::max({worst.normal_sensitivity, normal_sensitivity(j1.c_s(), j1.c_t()),
                                             normal_sensitivity(j2.c_s(), j2.c_t())});
      }
    }
  }
  return worst;
}

struct PeerAgreement {
  double regular = 0;          // max relative difference, point and derivatives to order 2
  double corner_position = 0;  // at extraordinary corners
  double corner_normal = 0;
  double corner_normal_sensitivity = 0;  // of the Bfr tangents at the corners
  double interior_position = 0;  // irregular faces, interior points
};

PeerAgreement opensubdiv_agreement(const su::TriangleMesh& mesh, const su::LoopSurface<double>& surface, std::mt19937_64& rng) {
  const oracles::OpenSubdivLoopEvaluator peer(mesh);
  PeerAgreement out;
  const auto& polygon = surface.patch(0).domain().polygon;
  for (int f = 0; f < surface.face_count(); ++f) {
    const su::Patch<double>& patch = surface.patch(f);
    if (surface.kind(f) == su::LoopPatchKind::kRegular) {
      for (const auto& [u, v] : face_points(rng, 4)) {
        const auto ours = patch.evaluate(u, v);
        const auto theirs = peer.evaluate(f, u, v);
        const Vec3<double> pairs[6][2] = {{ours.c(), theirs.position}, {ours.c_s(), theirs.du},   {ours.c_t(), theirs.dv},
                                          {ours.c_ss(), theirs.duu},   {ours.c_st(), theirs.duv}, {ours.c_tt(), theirs.dvv}};
        for (const auto& pair : pairs)
          out.regular = std::max(out.regular, (pair[0] - pair[1]).norm() / std::max(1.0, pair[1].norm()));
      }
      continue;
    }
    for (int corner = 0; corner < 3; ++corner) {
      const int vertex = surface.topology().face(f)[std::size_t(corner)];
      if (surface.topology().valence(vertex) == 6) continue;
      const auto& x = polygon[std::size_t(corner)];
      const auto theirs = peer.evaluate(f, x.x(), x.y());
      out.corner_position = std::max(out.corner_position, (theirs.position - surface.limit_position(vertex)).norm());
      const Vec3<double> n = theirs.du.cross(theirs.dv).normalized(), m = surface.limit_normal(vertex).normalized();
      out.corner_normal = std::max(out.corner_normal, n.dot(m) > 0 ? n.cross(m).norm() : 2.0);
      out.corner_normal_sensitivity =
          std::max(out.corner_normal_sensitivity, normal_sensitivity(theirs.du, theirs.dv));
    }
    for (const auto& [u, v] : std::vector<std::pair<double, double>>{{0.05, 0.05}, {0.9, 0.05}, {0.05, 0.9}, {0.3, 0.3}}) {
      out.interior_position = std::max(out.interior_position, (patch.evaluate(u, v).c() - peer.evaluate(f, u, v).position).norm());
    }
  }
  return out;
}

Metric at_most(std::string name, double value, double bound, const std::string& what, const std::string& why) {
  return check(std::move(name), value, std::nullopt, fmt::format("{} <= {:.3g}: {}", what, bound, why), value <= bound);
}

}  // namespace

SuiteResult loop_evaluation_suite([[maybe_unused]] const SuiteOptions& options) {
  SuiteResult result;
  result.name = "loop-evaluation";
  std::mt19937_64 rng(20261122);
  std::array<double, 4> fd{0, 0, 0, 0};
  Continuity jumps;
  PeerAgreement peer;
  double size = 0;  // the largest control-point coordinate of the meshes
  int faces = 0, regular = 0, extraordinary = 0, split = 0;
  for (const char* name : kMeshes) {
    const su::TriangleMesh mesh = suite_mesh(name);
    size = std::max(size, control_size(mesh));
    const su::LoopSurface<double> surface(mesh, name);
    for (int f = 0; f < surface.face_count(); ++f) {
      ++faces;
      const auto kind = surface.kind(f);
      regular += kind == su::LoopPatchKind::kRegular;
      extraordinary += kind == su::LoopPatchKind::kExtraordinary;
      split += kind == su::LoopPatchKind::kSplit;
    }
#if CONTACTREF_HAS_REAL50  // the 50-digit referee: release build only (core/scalar.hpp)
    const su::LoopSurface<Real50> surface50(mesh, name);
    const int stride = options.quick ? 7 : (surface.face_count() > 100 ? 3 : 1);
    const auto errors = finite_difference_errors(surface50, rng, stride, options.quick ? 1 : 4);
    for (std::size_t p = 1; p < 4; ++p) fd[p] = std::max(fd[p], errors[p]);
#endif
    const Continuity c = continuity_jumps(surface);
    jumps.position = std::max(jumps.position, c.position);
    jumps.normal = std::max(jumps.normal, c.normal);
    jumps.normal_sensitivity = std::max(jumps.normal_sensitivity, c.normal_sensitivity);
    const PeerAgreement a = opensubdiv_agreement(mesh, surface, rng);
    peer.regular = std::max(peer.regular, a.regular);
    peer.corner_position = std::max(peer.corner_position, a.corner_position);
    peer.corner_normal = std::max(peer.corner_normal, a.corner_normal);
    peer.corner_normal_sensitivity = std::max(peer.corner_normal_sensitivity, a.corner_normal_sensitivity);
    peer.interior_position = std::max(peer.interior_position, a.interior_position);
  }
  result.add(information("faces", double(faces), std::nullopt,
                         fmt::format("{} regular, {} with one extraordinary vertex, {} split", regular, extraordinary,
                                     split)));
  // 50-digit central differences with h = 1e-15: truncation h^2/6 times the
  // derivative two orders up, plus round-off 1e-50 / h.
  for (int p = 1; CONTACTREF_HAS_REAL50 && p <= 3; ++p)
    result.add(at_most(fmt::format("fd_error_order{}", p), fd[std::size_t(p)], 1e-20,
                       fmt::format("max |derivative - 50-digit difference| / max(1, |jet|), order {}", p),
                       "the difference (h = 1e-15) is off by h^2/6 |d^(p+2)c| + 1e-50/h, below 1e-20 while "
                       "|d^(p+2)c| <= 6e10 max(1, |jet|) (derivatives grow near extraordinary vertices); a wrong "
                       "derivative, or one rounded in double, is off by >= 1e-16"));
  const std::string model = fmt::format("two evaluations of 256 roundings each on control points up to {:g}", size);
  result.add(at_most("edge_position_jump", jumps.position, evaluation_roundoff(size),
                     "largest position jump across a shared edge (m)", "2 x 256 eps |P|, " + model));
  result.add(at_most("edge_normal_jump", jumps.normal, evaluation_roundoff(size) * jumps.normal_sensitivity,
                     "largest |n1 x n2| across a shared edge",
                     fmt::format("2 x 256 eps |P| / (min(|c_s|, |c_t|) sin(c_s, c_t)) = that error over the "
                                 "normal's sensitivity {:.3g}, ",
                                 jumps.normal_sensitivity) +
                         model));
  result.add(at_most("opensubdiv_regular_difference", peer.regular, evaluation_roundoff(size),
                     "regular faces: max |ours - Bfr| / max(1, |Bfr|), point and derivatives to order 2",
                     "2 x 256 eps |P|, " + model + " (the same box spline)"));
  result.add(at_most("opensubdiv_corner_position", peer.corner_position, evaluation_roundoff(size),
                     "extraordinary corners: |Bfr limit point - limit mask| (m)", "2 x 256 eps |P|, " + model));
  result.add(at_most("opensubdiv_corner_normal", peer.corner_normal,
                     evaluation_roundoff(size) * peer.corner_normal_sensitivity,
                     "extraordinary corners: |n_Bfr x n_tangent masks|",
                     fmt::format("2 x 256 eps |P| over the Bfr tangents' normal sensitivity {:.3g}, ",
                                 peer.corner_normal_sensitivity) +
                         model));
  result.add(information("opensubdiv_interior_difference", peer.interior_position, std::nullopt,
                         "irregular faces, max |c - c_Bfr| (m) at interior points; Bfr approximates near EVs"));
  return result;
}

void write_loop_bowl_figure_data(const std::filesystem::path& dir) {
  const su::LoopSurface<double> surface(suite_mesh("bowl_b2.obj"), "bowl_b2.obj");
  std::ofstream points(dir / "surface.csv"), boundaries(dir / "boundaries.csv"), vertices(dir / "vertices.csv");
  points << "face,i,j,x,y,z\n";
  boundaries << "face,edge,k,x,y,z\n";
  vertices << "vertex,valence,x,y,z\n";
  constexpr int kSteps = 16;
  for (int f = 0; f < surface.face_count(); ++f) {
    const su::Patch<double>& patch = surface.patch(f);
    // Grid points (i, j)/kSteps; the corners themselves are evaluated a
    // hair inside, where the extraordinary patches are defined.
    for (int i = 0; i <= kSteps; ++i) {
      for (int j = 0; i + j <= kSteps; ++j) {
        const double u = std::clamp(double(i) / kSteps, 1e-9, 1 - 2e-9), v = std::clamp(double(j) / kSteps, 1e-9, 1 - u - 1e-9);
        const Vec3<double> x = patch.evaluate(u, v).c();
        points << fmt::format("{},{},{},{:.9g},{:.9g},{:.9g}\n", f, i, j, x.x(), x.y(), x.z());
      }
    }
    for (int e = 0; e < 3; ++e) {
      const auto& polygon = patch.domain().polygon;
      for (int k = 0; k <= 2 * kSteps; ++k) {
        const double alpha = std::clamp(double(k) / (2 * kSteps), 1e-9, 1 - 1e-9);
        su::Vec2<double> y = polygon[std::size_t(e)] + alpha * (polygon[std::size_t((e + 1) % 3)] - polygon[std::size_t(e)]);
        y = y.cwiseMax(1e-9).eval();
        const Vec3<double> x = patch.evaluate(y.x(), std::min(y.y(), 1 - y.x() - 1e-9)).c();
        boundaries << fmt::format("{},{},{},{:.9g},{:.9g},{:.9g}\n", f, e, k, x.x(), x.y(), x.z());
      }
    }
  }
  for (int v = 0; v < surface.topology().vertex_count(); ++v) {
    const Vec3<double> x = surface.limit_position(v);
    vertices << fmt::format("{},{},{:.9g},{:.9g},{:.9g}\n", v, surface.topology().valence(v), x.x(), x.y(), x.z());
  }
  if (!points || !boundaries || !vertices) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
