#include "validation/oracles/surface_separation.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>

#include "core/errors.hpp"
#include "reference/spatial/pose.hpp"
#include "validation/oracles/surface_roundoff.hpp"

namespace contactref::oracles {
namespace {

namespace su = contactref::surfaces;
using Vec2d = su::Vec2<double>;
using Vec3d = Vec3<double>;
using Vec4d = Eigen::Vector4d;
using Mat4d = Eigen::Matrix4d;

constexpr int kCandidates = 8;      // lowest seeds refined by Newton
constexpr int kMaxIterations = 50;
// Newton has converged when its step is below this (relative to the
// parameters): the next error is of the step's square, far below round-off.
constexpr double kStepTolerance = 1e-10;

// ---------------------------------------------------------------------------
// Seed grids.

void add_sample(const su::Patch<double>& patch, int index, const Vec2d& x,
                std::vector<SurfaceSeparationOracle::Sample>& out) {
  const su::PatchJet<double> jet = patch.evaluate(x.x(), x.y());
  const Vec3d normal = jet.c_s().cross(jet.c_t());
  if (!(normal.norm() > 0) || !jet.d.allFinite()) return;  // a singular point (a chart's pole) seeds nothing
  out.push_back({index, x, jet.c(), normal.normalized()});
}

// A convex polygon fanned from its first vertex; each triangle (a, b, c) at
// a + (i + 1/3)/n (b - a) + (j + 1/3)/n (c - a), i + j < n: strictly inside.
void sample_polygon(const su::Patch<double>& patch, int index, int n,
                    std::vector<SurfaceSeparationOracle::Sample>& out) {
  const auto& polygon = patch.domain().polygon;
  for (std::size_t k = 1; k + 1 < polygon.size(); ++k) {
    const Vec2d a = polygon[0], ab = polygon[k] - a, ac = polygon[k + 1] - a;
    for (int i = 0; i < n; ++i)
      for (int j = 0; i + j < n; ++j)
        add_sample(patch, index, a + (i + 1.0 / 3) / n * ab + (j + 1.0 / 3) / n * ac, out);
  }
}

void sample_chart(const su::Patch<double>& patch, int index, int n,
                  std::vector<SurfaceSeparationOracle::Sample>& out) {
  const su::Domain<double>& domain = patch.domain();
  for (const su::Interval<double>* range : {&domain.s, &domain.t})
    if (!std::isfinite(range->lo) || !std::isfinite(range->hi))
      throw InputError("surface separation: " + patch.describe() +
                       " has an unbounded parameter range, which cannot be sampled");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      add_sample(patch, index,
                 Vec2d(domain.s.lo + (i + 0.5) / n * (domain.s.hi - domain.s.lo),
                       domain.t.lo + (j + 0.5) / n * (domain.t.hi - domain.t.lo)),
                 out);
}

std::vector<SurfaceSeparationOracle::Sample> sample_complex(const su::PatchComplex<double>& complex, int n) {
  std::vector<SurfaceSeparationOracle::Sample> out;
  for (std::size_t p = 0; p < complex.patches.size(); ++p) {
    const su::Patch<double>& patch = *complex.patches[p];
    if (patch.domain().is_polygon())
      sample_polygon(patch, int(p), n, out);
    else
      sample_chart(patch, int(p), n, out);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Newton on the pair conditions.

// A point of a surface and its derivatives to second order, in the world.
struct WorldJet {
  Vec3d p, d_s, d_t, d_ss, d_st, d_tt;
  double patch_size = 0;  // L = |c| + |c_s| + |c_t| in body coordinates (SurfaceSeparation's bounds)
  double translation = 0;  // |o| of the pose
};

WorldJet world_jet(const su::Patch<double>& patch, const Vec2d& x, const Mat4d& E_w) {
  const su::PatchJet<double> jet = patch.evaluate(x.x(), x.y());
  const Mat3<double> R = spatial::rotation_of<double>(E_w);
  const Vec3d o = spatial::translation_of<double>(E_w);
  return {R * jet.c() + o, R * jet.c_s(), R * jet.c_t(), R * jet.c_ss(), R * jet.c_st(), R * jet.c_tt(),
          jet.c().norm() + jet.c_s().norm() + jet.c_t().norm(), o.norm()};
}

// F(x1, x2) of the header's four conditions and its Jacobian in
// (s1, t1, s2, t2).
struct PairSystem {
  Vec4d F;
  Eigen::Matrix4d J;
};

PairSystem pair_system(const WorldJet& a, const WorldJet& b) {
  const Vec3d r = a.p - b.p;
  const Vec3d N = b.d_s.cross(b.d_t);
  const Vec3d N_s = b.d_ss.cross(b.d_t) + b.d_s.cross(b.d_st);
  const Vec3d N_t = b.d_st.cross(b.d_t) + b.d_s.cross(b.d_tt);
  PairSystem out;
  out.F << r.dot(b.d_s), r.dot(b.d_t), N.dot(a.d_s), N.dot(a.d_t);
  out.J << a.d_s.dot(b.d_s), a.d_t.dot(b.d_s), -b.d_s.dot(b.d_s) + r.dot(b.d_ss), -b.d_t.dot(b.d_s) + r.dot(b.d_st),
      a.d_s.dot(b.d_t), a.d_t.dot(b.d_t), -b.d_s.dot(b.d_t) + r.dot(b.d_st), -b.d_t.dot(b.d_t) + r.dot(b.d_tt),
      N.dot(a.d_ss), N.dot(a.d_st), N_s.dot(a.d_s), N_t.dot(a.d_s),  //
      N.dot(a.d_st), N.dot(a.d_tt), N_s.dot(a.d_t), N_t.dot(a.d_t);
  return out;
}

// The largest fraction of the step d from x that stays in the closed domain
// (periodic parameters are not limited).
double step_fraction(const su::Domain<double>& domain, const Vec2d& x, const Vec2d& d) {
  double lambda = 1;
  if (domain.is_polygon()) {
    for (std::size_t k = 0; k < domain.polygon.size(); ++k) {
      const double before = domain.edge_side(k, x), after = domain.edge_side(k, x + d);
      if (after < 0) lambda = std::min(lambda, std::max(0.0, before) / (before - after));
    }
    return lambda;
  }
  const su::Interval<double>* ranges[2] = {&domain.s, &domain.t};
  for (int i = 0; i < 2; ++i) {
    if (ranges[i]->periodic || d(i) == 0) continue;
    const double limit = d(i) > 0 ? ranges[i]->hi : ranges[i]->lo;
    lambda = std::min(lambda, std::max(0.0, (limit - x(i)) / d(i)));
  }
  return lambda;
}

void wrap_periodic(const su::Domain<double>& domain, Vec2d& x) {
  if (domain.is_polygon()) return;
  const su::Interval<double>* ranges[2] = {&domain.s, &domain.t};
  for (int i = 0; i < 2; ++i) {
    if (!ranges[i]->periodic) continue;
    const double period = ranges[i]->hi - ranges[i]->lo;
    x(i) = ranges[i]->lo + (x(i) - ranges[i]->lo) - period * std::floor((x(i) - ranges[i]->lo) / period);
  }
}

SurfaceSeparation measure(const WorldJet& a, const WorldJet& b, int patch1, const Vec2d& x1, int patch2,
                          const Vec2d& x2) {
  const Vec3d n1 = a.d_s.cross(a.d_t).normalized(), n2 = b.d_s.cross(b.d_t).normalized();
  SurfaceSeparation out;
  out.signed_distance = (a.p - b.p).dot(n2);
  out.normal_angle = std::atan2(n1.cross(n2).norm(), -n1.dot(n2));
  out.patch1 = patch1, out.patch2 = patch2;
  out.x1 = x1, out.x2 = x2;
  out.p1_w = a.p, out.p2_w = b.p;
  out.distance_roundoff = evaluation_roundoff(a.patch_size + a.translation + b.patch_size + b.translation);
  out.angle_roundoff = evaluation_roundoff(a.patch_size) * normal_sensitivity(a.d_s, a.d_t) +
                       evaluation_roundoff(b.patch_size) * normal_sensitivity(b.d_s, b.d_t);
  return out;
}

struct Placed {
  const su::PatchComplex<double>& complex;
  const Mat4d& E_w;
  const su::Patch<double>& patch(int p) const { return *complex.patches[std::size_t(p)]; }
};

// Newton from a seed pair; empty if it does not converge inside both patches
// (the pair then lies in a neighbour, which has its own seeds) or meets a
// singular system or a point that cannot be evaluated.
std::optional<SurfaceSeparation> refine(const Placed& one, int patch1, Vec2d x1, const Placed& two, int patch2,
                                        Vec2d x2) {
  const su::Patch<double>& p1 = one.patch(patch1);
  const su::Patch<double>& p2 = two.patch(patch2);
  try {
    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
      const PairSystem system = pair_system(world_jet(p1, x1, one.E_w), world_jet(p2, x2, two.E_w));
      // Rows scaled to unit size (the conditions have different units).
      const Vec4d scale = system.J.rowwise().lpNorm<Eigen::Infinity>().cwiseInverse();
      const Eigen::FullPivLU<Eigen::Matrix4d> lu(scale.asDiagonal() * system.J);
      if (!scale.allFinite() || !lu.isInvertible()) return std::nullopt;
      const Vec4d d = -lu.solve(scale.asDiagonal() * system.F);
      if (!d.allFinite()) return std::nullopt;
      const Vec2d d1 = d.head<2>(), d2 = d.tail<2>();
      const double lambda = std::min(step_fraction(p1.domain(), x1, d1), step_fraction(p2.domain(), x2, d2));
      const bool small = d.lpNorm<Eigen::Infinity>() <= kStepTolerance * std::max(1.0, std::max(x1.cwiseAbs().maxCoeff(), x2.cwiseAbs().maxCoeff()));
      if (lambda == 0 && !small) return std::nullopt;  // the pair lies beyond this patch's boundary
      x1 += lambda * d1, x2 += lambda * d2;
      wrap_periodic(p1.domain(), x1), wrap_periodic(p2.domain(), x2);
      if (small)
        return measure(world_jet(p1, x1, one.E_w), world_jet(p2, x2, two.E_w), patch1, x1, patch2, x2);
    }
  } catch (const ComputationError&) {
  }
  return std::nullopt;
}

}  // namespace

SurfaceSeparationOracle::SurfaceSeparationOracle(const su::PatchComplex<double>& surface1,
                                                 const su::PatchComplex<double>& surface2, int resolution)
    : surface1_(&surface1), surface2_(&surface2) {
  if (resolution < 1) throw InputError("surface separation: the resolution must be at least 1");
  samples1_ = sample_complex(surface1, resolution);
  samples2_ = sample_complex(surface2, resolution);
  if (samples1_.empty() || samples2_.empty()) throw InputError("surface separation: a surface has no regular sample");
}

SurfaceSeparation SurfaceSeparationOracle::operator()(const Mat4<double>& E_w_1, const Mat4<double>& E_w_2) const {
  const Mat3<double> R2 = spatial::rotation_of<double>(E_w_2);
  Eigen::Matrix3Xd points2(3, samples2_.size()), normals2(3, samples2_.size());
  for (std::size_t j = 0; j < samples2_.size(); ++j) {
    points2.col(Eigen::Index(j)) = (E_w_2 * samples2_[j].point.homogeneous()).head<3>();
    normals2.col(Eigen::Index(j)) = R2 * samples2_[j].normal;
  }
  // Each sample of surface 1 over its nearest sample of surface 2.
  struct Seed {
    double height;
    std::size_t i, j;
  };
  std::vector<Seed> seeds;
  seeds.reserve(samples1_.size());
  for (std::size_t i = 0; i < samples1_.size(); ++i) {
    const Vec3d p = (E_w_1 * samples1_[i].point.homogeneous()).head<3>();
    Eigen::Index j = 0;
    (points2.colwise() - p).colwise().squaredNorm().minCoeff(&j);
    seeds.push_back({(p - points2.col(j)).dot(normals2.col(j)), i, std::size_t(j)});
  }
  const std::size_t count = std::min<std::size_t>(kCandidates, seeds.size());
  std::partial_sort(seeds.begin(), seeds.begin() + std::ptrdiff_t(count), seeds.end(),
                    [](const Seed& a, const Seed& b) { return a.height < b.height; });
  const Placed one{*surface1_, E_w_1}, two{*surface2_, E_w_2};
  std::optional<SurfaceSeparation> lowest;
  for (std::size_t k = 0; k < count; ++k) {
    const Sample& a = samples1_[seeds[k].i];
    const Sample& b = samples2_[seeds[k].j];
    const auto pair = refine(one, a.patch, a.x, two, b.patch, b.x);
    if (pair && (!lowest || pair->signed_distance < lowest->signed_distance)) lowest = pair;
  }
  if (!lowest)
    throw ComputationError("surface separation: Newton converged from none of the " + std::to_string(count) +
                           " lowest seeds to a pair inside its patches");
  return *lowest;
}

}  // namespace contactref::oracles
