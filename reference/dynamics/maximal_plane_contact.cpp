#include "reference/dynamics/maximal_plane_contact.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "reference/spatial/newton_euler.hpp"

namespace contactref::dynamics {

namespace {

using surfaces::Mat2;
using surfaces::Vec2;

// Newton budget: from a warm start the support point is a few iterations and
// at most one hop away; a cold start may walk a few patches.
constexpr int kMaxIterations = 64;
constexpr int kMaxHops = 8;

template <class T>
void check_finite_state(const Eigen::Matrix<T, 13, 1>& y) {
  using std::isfinite;
  static const char* const names[13] = {"q_w", "q_x", "q_y", "q_z", "p_x", "p_y", "p_z",
                                        "omega_x", "omega_y", "omega_z", "v_x", "v_y", "v_z"};
  for (int k = 0; k < 13; ++k)
    if (!isfinite(y(k))) throw InputError(std::string("maximal plane contact state: ") + names[k] + " is not finite");
}

// zeta = R^T z_w: the third row of R (body coordinates of the world's up).
template <class T>
Vec3<T> up_in_body(const Eigen::Matrix<T, 13, 1>& y) {
  const Mat3<T> R = spatial::rotation_from_quaternion<T>(y.template segment<4>(0));
  return R.row(2).transpose();
}

// The Hessian of the height zeta . c(s, t).
template <class T>
Mat2<T> height_hessian(const Vec3<T>& zeta, const surfaces::PatchJet<T>& jet) {
  Mat2<T> A;
  A << zeta.dot(jet.c_ss()), zeta.dot(jet.c_st()), zeta.dot(jet.c_st()), zeta.dot(jet.c_tt());
  return A;
}

// x with A x = r for a symmetric A (Cramer; det > 0 checked by the caller).
template <class T>
Vec2<T> solve2(const Mat2<T>& A, const T& det, const Vec2<T>& r) {
  return Vec2<T>((A(1, 1) * r.x() - A(0, 1) * r.y()) / det, (A(0, 0) * r.y() - A(0, 1) * r.x()) / det);
}

// Moves x, a point on edge `edge` of its patch's polygon, to the same point
// of the neighbour patch: at fraction alpha along the edge, 1 - alpha along
// the neighbour's (PatchComplex). Returns the neighbour's edge, or -1 when
// the edge has no neighbour (x unchanged).
template <class T>
int cross_edge(const surfaces::PatchComplex<T>& complex, SupportPoint<T>& x, std::size_t edge, const Vec2<T>& point) {
  const std::vector<Vec2<T>>& from = complex.patches[std::size_t(x.patch)]->domain().polygon;
  const Vec2<T>& a = from[edge];
  const Vec2<T>& b = from[(edge + 1) % from.size()];
  const T alpha = std::clamp(T((point - a).dot(b - a) / (b - a).squaredNorm()), T(0), T(1));
  const surfaces::EdgeLink link = complex.links[std::size_t(x.patch)][edge];
  if (link.patch < 0) return -1;
  const std::vector<Vec2<T>>& to = complex.patches[std::size_t(link.patch)]->domain().polygon;
  const Vec2<T>& a2 = to[std::size_t(link.edge)];
  const Vec2<T>& b2 = to[(std::size_t(link.edge) + 1) % to.size()];
  x.patch = link.patch;
  x.st = a2 + surfaces::PatchComplex<T>::neighbour_fraction(alpha) * (b2 - a2);
  return link.edge;
}

// Where a point moving at x_dot stands with respect to a convex polygon:
// its distance inside (the least over the edges, parameter units; negative
// outside), the time until the linear motion leaves (-1 if never), the edge
// it would leave by (n if none) and its distance from that edge.
template <class T>
struct PolygonClearance {
  T distance;
  T time_to_exit;
  std::size_t exit_edge;
  T exit_distance;
};
template <class T>
PolygonClearance<T> clearance(const std::vector<Vec2<T>>& polygon, const Vec2<T>& x, const Vec2<T>& x_dot) {
  using std::min;
  const std::size_t n = polygon.size();
  PolygonClearance<T> r{T(0), T(-1), n, T(0)};
  for (std::size_t k = 0; k < n; ++k) {
    const Vec2<T> e = polygon[(k + 1) % n] - polygon[k];
    const T length = e.norm();
    const T side = (e.x() * (x - polygon[k]).y() - e.y() * (x - polygon[k]).x()) / length;
    const T rate = (e.x() * x_dot.y() - e.y() * x_dot.x()) / length;
    r.distance = k == 0 ? side : min(r.distance, side);
    if (rate < T(0) && (r.time_to_exit < T(0) || side / -rate < r.time_to_exit)) {
      r.time_to_exit = side / -rate;
      r.exit_edge = k;
      r.exit_distance = side;
    }
  }
  return r;
}

}  // namespace

template <class T>
MaximalPlaneContact<T>::MaximalPlaneContact(const T& mass, const Mat3<T>& I_com,
                                            const surfaces::PatchComplex<T>& surface, const Vec3<T>& gravity_w,
                                            const SupportPoint<T>& initial_support)
    : mass_(mass), body_(mass, I_com), surface_(&surface), gravity_w_(gravity_w), warm_(initial_support) {
  using std::isfinite;
  using std::sqrt;
  if (!gravity_w.allFinite()) throw InputError("maximal plane contact: gravity has a non-finite entry");
  const int count = int(surface.patches.size());
  if (initial_support.patch < 0 || initial_support.patch >= count) {
    std::ostringstream os;
    os << "maximal plane contact: initial support point patch " << initial_support.patch
       << " is outside the complex (" << count << " patches)";
    throw InputError(os.str());
  }
  const surfaces::Patch<T>& patch = *surface.patches[std::size_t(initial_support.patch)];
  const T s = initial_support.st.x(), t = initial_support.st.y();
  // sqrt(eps) slack: a point handed over from another model may sit on an
  // edge up to round-off.
  if (!isfinite(s) || !isfinite(t) || !patch.domain().contains(s, t, T(sqrt(epsilon<T>())))) {
    std::ostringstream os;
    os << "maximal plane contact: initial support point (s, t) = (" << s << ", " << t << ") is outside the domain of "
       << patch.describe();
    throw InputError(os.str());
  }
  warm_.c_b = patch.evaluate(s, t).c();
}

template <class T>
SupportPoint<T> MaximalPlaneContact<T>::locate(const Vec3<T>& zeta, surfaces::PatchJet<T>& jet) const {
  using std::sqrt;
  SupportPoint<T> x = warm_;
  const T eps = epsilon<T>();
  const auto fail = [&](const std::string& why) {
    std::ostringstream os;
    os << "maximal plane contact: support point search " << why << " (" << surface_->patches[std::size_t(x.patch)]->describe()
       << " at (s, t) = (" << x.st.transpose() << "), zeta_b = (" << zeta.transpose() << "))";
    throw ComputationError(os.str());
  };
  T previous = T(-1);  // |d| of the last step on this patch; < 0 after a hop
  int entry_edge = -1;  // the edge of this patch the walk came in by
  int hops = 0, bounces = 0;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    const surfaces::Patch<T>& patch = *surface_->patches[std::size_t(x.patch)];
    const surfaces::Domain<T>& domain = patch.domain();
    jet = patch.evaluate(x.st.x(), x.st.y());
    const Vec2<T> F(zeta.dot(jet.c_s()), zeta.dot(jet.c_t()));
    const Mat2<T> A = height_hessian<T>(zeta, jet);
    const T det = A(0, 0) * A(1, 1) - A(0, 1) * A(0, 1);
    if (!(A(0, 0) > T(0)) || !(det > T(0)))
      fail("met a point where the height is not strictly convex (flat, concave or saddle)");
    const Vec2<T> d = -solve2<T>(A, det, F);
    const T size = d.cwiseAbs().maxCoeff();
    // Converged: the step is at round-off (64 eps relative), or quadratic
    // convergence has stalled at the round-off floor (a step that fails to
    // shrink by 4 once the previous one was below sqrt(eps)). The point then
    // errs by at most |d|: the height and gap by O(|d|^2).
    if (size <= T(64) * eps * (T(1) + x.st.cwiseAbs().maxCoeff()) ||
        (previous >= T(0) && previous <= sqrt(eps) && size > previous / 4)) {
      if (!(jet.c_s().cross(jet.c_t()).dot(zeta) < T(0)))
        fail("converged to a point whose outward normal points up (the inside of a concave part)");
      x.c_b = jet.c();
      warm_ = x;
      return x;
    }
    const Vec2<T> next = x.st + d;
    if (domain.contains(next.x(), next.y())) {
      x.st = next;
      previous = size;
      continue;
    }
    if (!domain.is_polygon()) fail("left the chart's parameter domain");
    // The first edge the segment x -> next crosses: side is affine along it.
    const std::size_t n = domain.polygon.size();
    std::size_t exit_edge = n;
    T tau = T(2);
    for (std::size_t k = 0; k < n; ++k) {
      const T side_next = domain.edge_side(k, next);
      if (!(side_next < T(0))) continue;
      const T side_here = domain.edge_side(k, x.st);
      const T tau_k = std::clamp(T(side_here / (side_here - side_next)), T(0), T(1));
      if (tau_k < tau) {
        tau = tau_k;
        exit_edge = k;
      }
    }
    const Vec2<T>& a = domain.polygon[exit_edge];
    const Vec2<T>& b = domain.polygon[(exit_edge + 1) % n];
    const Vec2<T> exit_point = x.st + tau * d;
    if (int(exit_edge) == entry_edge && tau == T(0) && ++bounces > 1) {
      // Back and forth across one edge (a step nearly along it, both
      // patches' steps pointing across): slide along it instead.
      const T alpha = std::clamp(T((next - a).dot(b - a) / (b - a).squaredNorm()), T(0), T(1));
      x.st = a + alpha * (b - a);
      previous = size;
      continue;
    }
    if (++hops > kMaxHops) fail("crossed more patch edges than allowed");
    const int to_edge = cross_edge<T>(*surface_, x, exit_edge, exit_point);
    if (to_edge < 0) fail("reached an edge without a neighbour (an open surface)");
    entry_edge = to_edge;
    previous = T(-1);
  }
  fail("did not converge");
  return x;  // not reached
}

template <class T>
MaximalContactEvaluation<T> MaximalPlaneContact<T>::evaluate(const State& y) const {
  check_finite_state(y);
  MaximalContactEvaluation<T> r;
  const Vec3<T> zeta = up_in_body(y);
  surfaces::PatchJet<T> jet;
  r.support = locate(zeta, jet);
  const Vec3<T> c = jet.c();
  const Vec6<T> phi = y.template segment<6>(7);
  const Vec3<T> omega = phi.template head<3>(), v = phi.template tail<3>();
  const Mat6<T>& M = body_.M_b;

  r.gap = y(6) + zeta.dot(c);
  r.J << c.cross(zeta), zeta;
  r.gap_rate = r.J.dot(phi);

  // kappa: d/dt of J along the motion, with zeta' = -omega x zeta and the
  // support point's rates from d/dt (zeta . c_s, zeta . c_t) = 0.
  const Vec3<T> zeta_dot = -omega.cross(zeta);
  const Mat2<T> A = height_hessian<T>(zeta, jet);
  r.st_dot = solve2<T>(A, T(A(0, 0) * A(1, 1) - A(0, 1) * A(0, 1)),
                       Vec2<T>(-zeta_dot.dot(jet.c_s()), -zeta_dot.dot(jet.c_t())));
  const Vec3<T> c_dot = jet.c_s() * r.st_dot.x() + jet.c_t() * r.st_dot.y();
  r.kappa = (c_dot.cross(zeta) + c.cross(zeta_dot)).dot(omega) + zeta_dot.dot(v);

  // Schur complement of the KKT system with the Cholesky factor of M.
  Vec6<T> f_gravity = Vec6<T>::Zero();
  f_gravity.template tail<3>() = mass_ * (spatial::rotation_from_quaternion<T>(y.template segment<4>(0)).transpose() *
                                          gravity_w_);
  const Vec6<T> b = f_gravity + spatial::spatial_cross<T>(phi).transpose() * (M * phi);
  const Vec6<T> Minv_b = body_.M_factor.solve(b);
  const Vec6<T> Minv_J = body_.M_factor.solve(r.J);
  r.lambda = -(r.kappa + r.J.dot(Minv_b)) / r.J.dot(Minv_J);
  r.wrench_b = f_gravity + r.J * r.lambda;
  using std::isfinite;
  if (!(r.J.allFinite() && isfinite(r.kappa) && isfinite(r.lambda))) {
    std::ostringstream os;
    os << "maximal plane contact: non-finite contact terms at the support point on patch " << r.support.patch
       << ", (s, t) = (" << r.support.st.transpose() << ")";
    throw ComputationError(os.str());
  }
  return r;
}

template <class T>
typename MaximalPlaneContact<T>::State MaximalPlaneContact<T>::derivative(const State& y) const {
  return spatial::free_body_derivative<T>(body_, y, evaluate(y).wrench_b);
}

template <class T>
SupportPoint<T> MaximalPlaneContact<T>::support_point(const State& y) const {
  check_finite_state(y);
  surfaces::PatchJet<T> jet;
  return locate(up_in_body(y), jet);
}

template <class T>
T MaximalPlaneContact<T>::gap(const State& y) const {
  return evaluate(y).gap;
}

template <class T>
T MaximalPlaneContact<T>::gap_rate(const State& y) const {
  return evaluate(y).gap_rate;
}

template <class T>
T MaximalPlaneContact<T>::normal_force(const State& y) const {
  return evaluate(y).lambda;
}

template <class T>
T MaximalPlaneContact<T>::energy(const State& y) const {
  check_finite_state(y);
  return spatial::kinetic_energy<T>(body_.M_b, Vec6<T>(y.template segment<6>(7))) -
         mass_ * gravity_w_.dot(y.template segment<3>(4));
}

template <class T>
typename MaximalPlaneContact<T>::State MaximalPlaneContact<T>::step(const State& y, const T& h) const {
  spatial::check_free_body_state<T>(y);
  return spatial::free_body_rk4_step<T>(body_, T(0), y, h,
                                        [&](const T&, const State& z) { return evaluate(z).wrench_b; });
}

template <class T>
MaximalStep<T> MaximalPlaneContact<T>::advance(const State& y, const T& h) const {
  using std::isfinite;
  spatial::check_free_body_state<T>(y);
  if (!isfinite(h) || !(h > T(0))) throw InputError("maximal plane contact: advance needs a finite step h > 0");
  const T eps = epsilon<T>();
  const T on_boundary = T(1024) * eps;  // parameter units: above the support point's round-off
  MaximalContactEvaluation<T> e = evaluate(y);
  const surfaces::Patch<T>* patch = surface_->patches[std::size_t(e.support.patch)].get();
  if (!patch->domain().is_polygon()) return {step(y, h), h, false};  // an analytic chart: one smooth piece
  // On a patch edge and moving across it: the step starts on the neighbour.
  const PolygonClearance<T> edge = clearance<T>(patch->domain().polygon, e.support.st, e.st_dot);
  if (edge.exit_edge < patch->domain().polygon.size() && edge.exit_distance <= on_boundary) {
    SupportPoint<T> across = e.support;
    if (cross_edge<T>(*surface_, across, edge.exit_edge, e.support.st) >= 0) {
      warm_ = across;
      e = evaluate(y);
      patch = surface_->patches[std::size_t(e.support.patch)].get();
    }
  }
  const SupportPoint<T> start = e.support;
  const std::vector<Vec2<T>> piece = patch->smooth_piece(start.st.x(), start.st.y(), e.st_dot);
  // The support point at the end of an RK4 step of length tau from y, with
  // the walk started from the same warm start each time.
  const auto trial = [&](const T& tau, State& z, MaximalContactEvaluation<T>& end) {
    warm_ = start;
    z = step(y, tau);
    end = evaluate(z);
    return end.support.patch == start.patch;
  };
  State z;
  MaximalContactEvaluation<T> end;
  if (trial(h, z, end) && clearance<T>(piece, end.support.st, end.st_dot).distance >= -on_boundary)
    return {z, h, false};
  // The step crosses the boundary: find tau in (0, h) whose step ends on it.
  // Newton on tau, with the boundary distance's rate from (s', t') at the
  // trial's end, kept inside the bracket [inside, outside] by bisection.
  T inside = T(0), outside = h;
  State y_inside = y;
  PolygonClearance<T> c = clearance<T>(piece, start.st, e.st_dot);
  T tau = c.time_to_exit > T(0) && c.time_to_exit < h ? c.time_to_exit : h / 2;
  for (int iteration = 0; iteration < kMaxIterations && outside - inside > T(64) * eps * h; ++iteration) {
    if (trial(tau, z, end) && (c = clearance<T>(piece, end.support.st, end.st_dot)).distance >= -on_boundary) {
      if (c.distance <= on_boundary) return {z, tau, true};
      inside = tau;
      y_inside = z;
      tau = c.time_to_exit > T(0) ? T(inside + c.time_to_exit) : outside;
    } else {
      outside = tau;
    }
    if (!(tau > inside && tau < outside)) tau = (inside + outside) / 2;
  }
  warm_ = start;
  // No point of the step stays inside the piece (a grazing start on its
  // boundary): the full step is taken, at the cost of its order.
  if (inside == T(0)) return {step(y, h), h, false};
  evaluate(y_inside);
  return {y_inside, inside, true};
}

template <class T>
typename MaximalPlaneContact<T>::State maximal_state_from_pose(const Mat4<T>& E_w_1, const Vec6<T>& phi_b) {
  using std::abs;
  if (!E_w_1.allFinite() || !phi_b.allFinite())
    throw InputError("maximal state from pose: the pose or the twist has a non-finite entry");
  const Mat3<T> R = spatial::rotation_of<T>(E_w_1);
  if ((R.transpose() * R - Mat3<T>::Identity()).cwiseAbs().maxCoeff() > T(1e-6) || !(R.determinant() > T(0)))
    throw InputError("maximal state from pose: E_w_1's rotation is not orthonormal with determinant 1");
  // Eigen's rotation-matrix-to-quaternion conversion (Shepperd's method).
  const Eigen::Quaternion<T> quaternion(R);
  Vec4<T> q(quaternion.w(), quaternion.x(), quaternion.y(), quaternion.z());
  if (q(0) < T(0)) q = -q;
  q /= q.norm();
  return spatial::make_free_body_state<T>(q, spatial::translation_of<T>(E_w_1), phi_b);
}

#define CONTACTREF_INSTANTIATE(T) \
  template struct MaximalStep<T>; \
  template struct SupportPoint<T>; \
  template class MaximalPlaneContact<T>; \
  template MaximalPlaneContact<T>::State maximal_state_from_pose<T>(const Mat4<T>&, const Vec6<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
