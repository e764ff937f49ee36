// Intersection moments by parallel rays (Bouchard et al. Section 4, Eqs.
// 14-20); the method and the error estimate are in raycast_moments.hpp.
#include "robust_geometry/raycast_moments.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "robust_geometry/coordinate_range.hpp"
#include "robust_geometry/ray_layer.hpp"

namespace contactref::robust_geometry {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

[[noreturn]] void bad_input(const std::string& what) {
  throw InputError("raycast_intersection_moments: " + what);
}

// Finite, supported coordinates and indices in range (checked even when the
// solids are trusted: the rays index and multiply them).
void check_solid(const TriangleSolid& solid, const std::vector<Vector3d>& placed, const std::string& name) {
  if (solid.triangles.empty()) bad_input(name + ": the mesh has no triangles");
  for (std::size_t v = 0; v < placed.size(); ++v) {
    for (Eigen::Index c = 0; c < 3; ++c) {
      if (!supported_coordinate(placed[v](c))) {
        bad_input(name + ": vertex " + std::to_string(v) + " has a coordinate " + std::to_string(placed[v](c)) +
                  " (in A's frame) outside the supported magnitudes " + kSupportedMagnitudes);
      }
    }
  }
  for (std::size_t t = 0; t < solid.triangles.size(); ++t) {
    for (const int index : solid.triangles[t]) {
      if (index < 0 || std::size_t(index) >= placed.size()) {
        bad_input(name + ": triangle " + std::to_string(t) + " has vertex index " + std::to_string(index) +
                  " out of range [0, " + std::to_string(placed.size()) + ")");
      }
    }
  }
}

// One axis's results: V, ∫ y, ∫ y y^T (y = r - o, in x y z) with their
// estimates, and its share of the gradient: G(j, k) = ∫ x_j n_k dA for
// j ≠ k and L = ∫ n_k dA, per part (interior, touching, flush), and the
// estimates for the whole gradient (interior + (touching + flush) / 2).
struct Quadrature {
  double sum = 0, bound = 0;
};

struct AxisMoments {
  Quadrature volume;
  std::array<Quadrature, 3> first;
  std::array<std::array<Quadrature, 3>, 3> second;
  std::array<Vector3d, 3> part_g;  // per part: (G(a, k), G(b, k), L) (a, b, k cyclic)
  Vector3d gradient_bound;         // the estimates of the same entries of the whole gradient
};

// The integrands of a cell (header, "Method" and "Gradient"), in the order
// f; u f, v f, g; (u^2 + h_a^2/12) f, (v^2 + h_b^2/12) f, u v f, u g, v g, s;
// x_a W, x_b W, W (W the whole gradient's signed count, x_a = u + o_a).
constexpr std::size_t kIntegrands = 13;
using Integrands = std::array<double, kIntegrands>;

// Σ φ h_a h_b over the cells for every integrand φ, and the error estimate
// Σ (h_a h_b / 2) (|D_a^2 φ| + |D_b^2 φ|) with φ = 0 outside the grid
// (header, "Error estimate"); three rows of integrands at a time.
AxisMoments integrate(const detail::RayLayer& layer, const Vector3d& o) {
  const int k = layer.axis, a = (k + 1) % 3, b = (k + 2) % 3;
  const std::size_t n = std::size_t(layer.cells);
  const double cell_a = layer.width_a * layer.width_a / 12, cell_b = layer.width_b * layer.width_b / 12;
  // Row j's integrands; false if they are all zero (j outside the grid too).
  const auto fill_row = [&](std::ptrdiff_t j, std::vector<Integrands>& row) {
    std::fill(row.begin(), row.end(), Integrands{});
    if (j < 0 || j >= std::ptrdiff_t(n)) return false;
    bool any = false;
    const double v = layer.centre_b[std::size_t(j)] - o(b);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t r = i + n * std::size_t(j);
      const double f = layer.length[r], g = layer.first[r], s = layer.second[r];
      const double w = layer.interior[r] + (layer.touching[r] + layer.flush[r]) / 2.0;
      if (f == 0 && g == 0 && s == 0 && w == 0) continue;
      any = true;
      const double u = layer.centre_a[i] - o(a);
      row[i] = {f,     u * f, v * f, g, (u * u + cell_a) * f, (v * v + cell_b) * f, u * v * f, u * g, v * g, s,
                (u + o(a)) * w, (v + o(b)) * w, w};
    }
    return any;
  };
  std::array<std::vector<Integrands>, 3> rows;  // j - 1, j, j + 1
  std::array<bool, 3> nonzero{};
  for (std::vector<Integrands>& row : rows) row.resize(n);
  nonzero[1] = fill_row(-1, rows[1]);
  nonzero[2] = fill_row(0, rows[2]);
  Integrands sum{}, bound{};
  for (std::size_t j = 0; j < n; ++j) {
    std::rotate(rows.begin(), rows.begin() + 1, rows.end());
    std::rotate(nonzero.begin(), nonzero.begin() + 1, nonzero.end());
    nonzero[2] = fill_row(std::ptrdiff_t(j) + 1, rows[2]);
    if (!(nonzero[0] || nonzero[1] || nonzero[2])) continue;
    for (std::size_t i = 0; i < n; ++i) {
      const Integrands& c = rows[1][i];
      for (std::size_t e = 0; e < kIntegrands; ++e) {
        const double west = i > 0 ? rows[1][i - 1][e] : 0.0, east = i + 1 < n ? rows[1][i + 1][e] : 0.0;
        sum[e] += c[e];
        bound[e] += std::abs(east + west - 2 * c[e]) + std::abs(rows[0][i][e] + rows[2][i][e] - 2 * c[e]);
      }
    }
  }
  const double area = layer.width_a * layer.width_b;
  const auto q = [&](std::size_t e) { return Quadrature{sum[e] * area, bound[e] * area / 2}; };
  AxisMoments m;
  m.volume = q(0);
  m.first[std::size_t(a)] = q(1);
  m.first[std::size_t(b)] = q(2);
  m.first[std::size_t(k)] = q(3);
  const auto set = [&](int p, int r, const Quadrature& value) {
    m.second[std::size_t(p)][std::size_t(r)] = value;
    m.second[std::size_t(r)][std::size_t(p)] = value;
  };
  set(a, a, q(4));
  set(b, b, q(5));
  set(a, b, q(6));
  set(a, k, q(7));
  set(b, k, q(8));
  set(k, k, q(9));
  for (std::size_t e = 0; e < 3; ++e) m.gradient_bound(Eigen::Index(e)) = q(10 + e).bound;
  // The parts: sums only.
  const std::array<const std::vector<std::int32_t>*, 3> parts{&layer.interior, &layer.touching, &layer.flush};
  for (std::size_t p = 0; p < 3; ++p) {
    Vector3d g = Vector3d::Zero();
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n; ++i) {
        const double count = (*parts[p])[i + n * j];
        g += count * Vector3d(layer.centre_a[i], layer.centre_b[j], 1);
      }
    m.part_g[p] = g * area;
  }
  return m;
}

// The gradient (angular; linear) from the axes' G(j, k) = ∫ x_j n_k dA and
// L_k: (∫ x × n dA)_i = G(i+1, i+2) - G(i+2, i+1), (∫ n dA)_k = L_k.
// entries(k) = (G(a, k), G(b, k), L_k) as integrate gives them.
Vector6d assemble_gradient(const std::array<Vector3d, 3>& entries) {
  Matrix3d G = Matrix3d::Zero();
  Vector6d g = Vector6d::Zero();
  for (int k = 0; k < 3; ++k) {
    G((k + 1) % 3, k) = entries[std::size_t(k)](0);
    G((k + 2) % 3, k) = entries[std::size_t(k)](1);
    g(3 + k) = entries[std::size_t(k)](2);
  }
  for (int i = 0; i < 3; ++i) g(i) = G((i + 1) % 3, (i + 2) % 3) - G((i + 2) % 3, (i + 1) % 3);
  return g;
}

}  // namespace

RaycastMoments raycast_intersection_moments(const TriangleSolid& a, const TriangleSolid& b,
                                            const RigidPose<double>& pose_b, const RaycastOptions& options) {
  if (!(options.cells >= 1 && options.cells <= kMaxRaycastCells)) {
    bad_input("cells = " + std::to_string(options.cells) + " is outside [1, " + std::to_string(kMaxRaycastCells) + "]");
  }
  if (!options.assume_valid_solids) {
    validate_triangle_solid(a, "raycast_intersection_moments: solid A");
    validate_triangle_solid(b, "raycast_intersection_moments: solid B");
  }
  std::vector<Vector3d> placed_b;
  placed_b.reserve(b.vertices.size());
  for (const Vector3d& x : b.vertices) placed_b.push_back(pose_b * x);
  check_solid(a, a.vertices, "solid A");
  check_solid(b, placed_b, "solid B");

  RaycastMoments out;
  out.report.cells = options.cells;
  // The overlap of the bounding boxes (Ω lies in it).
  Vector3d lo = Vector3d::Constant(-std::numeric_limits<double>::infinity()), hi = -lo;
  for (const std::vector<Vector3d>* vertices : std::array<const std::vector<Vector3d>*, 2>{&a.vertices, &placed_b}) {
    Vector3d box_lo = Vector3d::Constant(std::numeric_limits<double>::infinity()), box_hi = -box_lo;
    for (const Vector3d& x : *vertices) {
      box_lo = box_lo.cwiseMin(x);
      box_hi = box_hi.cwiseMax(x);
    }
    lo = lo.cwiseMax(box_lo);
    hi = hi.cwiseMin(box_hi);
  }
  if (!(lo.array() <= hi.array()).all()) return out;  // kDisjoint
  const Vector3d o = (lo + hi) / 2;
  const Vector3d side = hi - lo;

  const detail::PlacedMesh mesh_a{&a.vertices, &a.triangles}, mesh_b{&placed_b, &b.triangles};
  std::array<AxisMoments, 3> axes;
  std::array<bool, 3> has_rays{};
  bool solids_meet = false;
  for (int k = 0; k < 3; ++k) {
    const detail::RayLayer layer = detail::cast_rays(mesh_a, mesh_b, lo, hi, k, options.cells, o(k));
    has_rays[std::size_t(k)] = layer.cells > 0;
    if (!has_rays[std::size_t(k)]) continue;
    out.report.rays += std::size_t(layer.cells) * std::size_t(layer.cells);
    out.report.hits += layer.hits;
    solids_meet = solids_meet || layer.solids_meet;
    axes[std::size_t(k)] = integrate(layer, o);
  }

  // The gradient: each axis's share (zero for an axis without rays: the box
  // is flat across it, so the projected integrals vanish).
  IntersectionMoments& m = out.moments;
  std::array<std::array<Vector3d, 3>, 3> parts{};  // [part][axis]
  Vector6d& gradient_bound = out.report.bounds.gradient;
  for (std::size_t k = 0; k < 3; ++k) {
    if (!has_rays[k]) continue;
    for (std::size_t p = 0; p < 3; ++p) parts[p][k] = axes[k].part_g[p];
    // Bounds add over the two terms of an angular entry: G(a, k) enters
    // entry i with {i+1, i+2} = {a, k}, i.e. i = b; G(b, k) entry a.
    const Vector3d& bound = axes[k].gradient_bound;
    gradient_bound(Eigen::Index(k + 2) % 3) += bound(0);
    gradient_bound(Eigen::Index(k + 1) % 3) += bound(1);
    gradient_bound(3 + Eigen::Index(k)) = bound(2);
  }
  m.gradient_interior = assemble_gradient(parts[0]);
  m.gradient_touching = assemble_gradient(parts[1]);
  m.gradient_flush = assemble_gradient(parts[2]);
  m.gradient = m.gradient_interior + (m.gradient_touching + m.gradient_flush) / 2;

  // The volume moments from the axis with the smallest volume estimate
  // among those that see a volume.
  int best = -1;
  for (int k = 0; k < 3; ++k) {
    const AxisMoments& axis = axes[std::size_t(k)];
    if (has_rays[std::size_t(k)] && axis.volume.sum > 0 &&
        (best < 0 || axis.volume.bound < axes[std::size_t(best)].volume.bound)) {
      best = k;
    }
  }
  if (best < 0) {
    m.kind = solids_meet ? IntersectionKind::kTouching : IntersectionKind::kDisjoint;
    return out;
  }
  const AxisMoments& axis = axes[std::size_t(best)];
  out.report.moment_axis = best;
  m.kind = IntersectionKind::kOverlapping;
  const double V = axis.volume.sum, bV = axis.volume.bound;
  Vector3d first, first_bound;
  Matrix3d second, second_bound;
  for (std::size_t i = 0; i < 3; ++i) {
    first(Eigen::Index(i)) = axis.first[i].sum;
    first_bound(Eigen::Index(i)) = axis.first[i].bound;
    for (std::size_t j = 0; j < 3; ++j) {
      second(Eigen::Index(i), Eigen::Index(j)) = axis.second[i][j].sum;
      second_bound(Eigen::Index(i), Eigen::Index(j)) = axis.second[i][j].bound;
    }
  }
  m.volume = V;                       // Eq. 14
  const Vector3d y = first / V;       // c - o
  m.centroid = o + y;                 // Eq. 15
  m.covariance = second - first * y.transpose();  // ∫ y y^T - V y y^T
  m.covariance = (m.covariance + m.covariance.transpose()).eval() / 2;
  m.second_moment = m.covariance.trace() * Matrix3d::Identity() - m.covariance;  // Eq. 16
  fill_principal_shape(m);

  // The bounds of the header's "Error estimate", from B_V, B_∫y, B_∫yy.
  RaycastBounds& bounds = out.report.bounds;
  bounds.volume = bV;
  for (Eigen::Index i = 0; i < 3; ++i) {
    const double first_order = V > bV ? (first_bound(i) + std::abs(y(i)) * bV) / (V - bV)
                                      : std::numeric_limits<double>::infinity();
    bounds.centroid(i) = std::min(first_order, side(i));
  }
  const Vector3d& dc = bounds.centroid;
  for (Eigen::Index i = 0; i < 3; ++i)
    for (Eigen::Index j = 0; j < 3; ++j) {
      const double perturbation = second_bound(i, j) + bV * std::abs(y(i) * y(j)) +
                                  (V + bV) * (std::abs(y(i)) * dc(j) + dc(i) * std::abs(y(j)) + dc(i) * dc(j));
      bounds.covariance(i, j) = std::min(perturbation, (2 * V + bV) * side(i) * side(j) / 4);
    }
  bounds.second_moment = bounds.covariance;
  bounds.second_moment.diagonal().array() += bounds.covariance.trace();
  return out;
}

}  // namespace contactref::robust_geometry
