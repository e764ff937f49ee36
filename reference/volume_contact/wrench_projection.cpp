#include "reference/volume_contact/wrench_projection.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <array>
#include <cmath>
#include <optional>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "reference/spatial/so3.hpp"
#include "reference/volume_contact/centre_of_pressure.hpp"

namespace contactref::volume_contact {
namespace {

// Forces here are in the paper's contact axes (n, u, w): index 0 is normal.
enum class ConeSide { kInside, kOutside, kPolar };

// Step 5's re-solve: at most this many rounds, until the spin at the centre
// of pressure is at the bound there to this relative tolerance.
constexpr int kSpinRounds = 8;
constexpr double kSpinTolerance = 1e-12;

ConeSide cone_side(const Eigen::Vector3d& f, double mu) {
  const double f_t = f.tail<2>().norm();
  if (f[0] <= 0 && mu * f_t <= -f[0]) return ConeSide::kPolar;  // projects to the apex (also f = 0)
  return f_t <= mu * f[0] ? ConeSide::kInside : ConeSide::kOutside;
}

// The direction of f's projection onto the cone's surface (f outside, not polar).
Eigen::Vector3d cone_direction(const Eigen::Vector3d& f, double mu) {
  Eigen::Vector3d q(1, 0, 0);
  const double f_t = f.tail<2>().norm();
  if (f_t > 0) q.tail<2>() = mu * f.tail<2>() / f_t;
  return q / std::sqrt(1 + mu * mu);
}

// The force's size s along q that zeroes the normal velocity, from the normal
// row of K s q = -e (K = the point's 3x3 force-to-velocity block): Eq. 10.
// Zero (separation) when pushing along q does not close the normal gap
// (n.K q <= 0) or the size is not positive.
double size_along(const Eigen::Matrix3d& K, const Eigen::Vector3d& e, const Eigen::Vector3d& q) {
  const double k = K.row(0).dot(q);
  if (!(k > 0)) return 0;
  const double s = -e[0] / k;
  return s > 0 ? s : 0;
}

// Step 5's re-solve (wrench_projection.hpp), in the paper's order: the
// branch's other equations with the torque about n at p held at `spin`
// (tau_n = spin + (r x f)_n, r = p - c: linear in the unknowns). Stuck (q
// null): the unknowns are the five other components and the five other
// velocity rows vanish. Sliding: the unknowns are the force's size along q
// and tau_u, tau_w, and Eq. 4's rows but the spin's vanish (the normal and
// the tangential angular velocity). Nothing when the system is singular.
std::optional<Vector6d> solve_with_spin_at(const Matrix6d& S, const Vector6d& e, double spin,
                                           const Eigen::Vector2d& p, const Eigen::Vector3d* q) {
  // lambda = G x + spin e_3; row 3 of G: tau_n's part (r x f)_n = p_u f_w - p_w f_u.
  Eigen::Matrix<double, 6, Eigen::Dynamic> G;
  std::vector<int> rows;
  if (!q) {
    rows = {0, 1, 2, 4, 5};
    G = Eigen::Matrix<double, 6, 5>::Zero();
    for (int k = 0; k < 5; ++k) G(rows[std::size_t(k)], k) = 1;
    G(3, 1) = -p.y();
    G(3, 2) = p.x();
  } else {
    rows = {0, 4, 5};
    G = Eigen::Matrix<double, 6, 3>::Zero();
    G.col(0).head<3>() = *q;
    G(3, 0) = p.x() * (*q)[2] - p.y() * (*q)[1];
    G(4, 1) = G(5, 2) = 1;
  }
  const Eigen::MatrixXd M = (S * G)(rows, Eigen::all);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(M);
  if (!lu.isInvertible()) return std::nullopt;
  const Eigen::VectorXd x = lu.solve(-(e + S.col(3) * spin)(rows));
  Vector6d lambda = G * x;
  lambda[3] += spin;
  return lambda;
}

void check_arguments(const Eigen::Vector2d& semi_axes, double mu, const char* what) {
  if (!(std::isfinite(mu) && mu >= 0) ||
      !(std::isfinite(semi_axes.x()) && semi_axes.x() >= semi_axes.y() && semi_axes.y() >= 0)) {
    std::ostringstream os;
    os << what << ": need a finite friction coefficient >= 0 and semi-axes a >= b >= 0, got mu = " << mu
       << ", (a, b) = (" << semi_axes.x() << ", " << semi_axes.y() << ")";
    throw InputError(os.str());
  }
}

}  // namespace

const char* to_string(JointState state) {
  switch (state) {
    case JointState::kSeparating: return "separating";
    case JointState::kStuck: return "stuck";
    case JointState::kSliding: return "sliding";
    case JointState::kRolling: return "rolling";
    case JointState::kRollingSliding: return "rolling-sliding";
  }
  return "unknown";
}

double spin_torque_bound(const Eigen::Vector2d& p, const Eigen::Vector2d& semi_axes, double f_n, double mu) {
  const double a = semi_axes.x(), b = semi_axes.y();
  if (!p.allFinite() || !(std::isfinite(a) && a >= 0) || !(std::isfinite(b) && b >= 0) ||
      !(std::isfinite(f_n) && f_n >= 0) || !(std::isfinite(mu) && mu >= 0) || std::abs(p.x()) > a ||
      std::abs(p.y()) > b) {
    std::ostringstream os;
    os << "spin torque bound: need p inside the rectangle [-a, a] x [-b, b], a, b, f_n, mu finite and >= 0, got p = ("
       << p.x() << ", " << p.y() << "), (a, b) = (" << a << ", " << b << "), f_n = " << f_n << ", mu = " << mu;
    throw InputError(os.str());
  }
  // Bilinear coordinates along one axis of half-length h: (h - x, h + x)/2h for the corners at -h, +h.
  const auto weights = [](double h, double x) {
    return h > 0 ? Eigen::Vector2d((h - x) / (2 * h), (h + x) / (2 * h)) : Eigen::Vector2d(0.5, 0.5);
  };
  const Eigen::Vector2d wu = weights(a, p.x()), wv = weights(b, p.y());
  double sum = 0;  // Eq. 13: sum_i f_ni |c_i - p| / f_n, with f_i = w_i f (Eq. 12)
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const Eigen::Vector2d corner((2 * i - 1) * a, (2 * j - 1) * b);
      sum += wu[i] * wv[j] * (corner - p).norm();
    }
  return mu * f_n * sum;
}

WrenchProjection project_joint(const Matrix6d& S_c, const Vector6d& e_c, const Eigen::Vector2d& semi_axes,
                               double mu, const ProjectionOptions& options) {
  check_arguments(semi_axes, mu, "6D joint projection");
  const SupportRegion* support = options.support && !options.support->empty() ? options.support : nullptr;
  // Sections 5.4 and 5.6 on the patch: the ellipse with Eqs. 11-13, or the support region.
  const auto project_onto_patch = [&](const Eigen::Vector2d& d) {
    return support ? project_onto_region(d, *support) : project_onto_ellipse(d, semi_axes);
  };
  const auto spin_bound = [&](const Eigen::Vector2d& p, double f_n) {
    return support ? region_spin_torque_bound(p, *support, f_n, mu) : spin_torque_bound(p, semi_axes, f_n, mu);
  };
  if (!S_c.allFinite() || !e_c.allFinite()) throw InputError("6D joint projection: non-finite Schur complement or twist");
  // The paper's order from here on: (f_n, f_u, f_w, tau_n, tau_u, tau_w).
  const Matrix6d S = to_paper_order(S_c);
  const Vector6d e = to_paper_order(e_c);
  const Eigen::LLT<Matrix6d> llt(S);
  if (llt.info() != Eigen::Success)
    throw ComputationError("6D joint projection: the Schur complement J M^-1 J^T is not positive definite "
                           "(do both bodies have infinite mass?)");
  WrenchProjection out;
  Vector6d lambda = llt.solve(-e);  // Eq. 1
  out.state = JointState::kStuck;

  const Eigen::Matrix3d S_ll = S.topLeftCorner<3, 3>(), S_la = S.topRightCorner<3, 3>();
  const Eigen::Matrix3d S_al = S.bottomLeftCorner<3, 3>(), S_aa = S.bottomRightCorner<3, 3>();
  Eigen::Vector3d q;  // sliding: the force's direction
  switch (cone_side(lambda.head<3>(), mu)) {
    case ConeSide::kPolar: return out.state = JointState::kSeparating, out;
    case ConeSide::kInside: break;
    case ConeSide::kOutside: {
      // Eq. 4, R S Q lambda' = -R e, with the torques eliminated through S_aa
      // (a principal block of S: positive definite): the normal row of the
      // reduced K = S_ll - S_la S_aa^-1 S_al gives the size along q.
      q = cone_direction(lambda.head<3>(), mu);
      const Eigen::LLT<Eigen::Matrix3d> aa(S_aa);
      const Eigen::Matrix3d K = S_ll - S_la * aa.solve(S_al);
      const Eigen::Vector3d e_reduced = e.head<3>() - S_la * aa.solve(e.tail<3>());
      const double size = size_along(K, e_reduced, q);
      if (size == 0) return out.state = JointState::kSeparating, out;
      lambda.head<3>() = size * q;
      lambda.tail<3>() = aa.solve(-e.tail<3>() - S_al * lambda.head<3>());
      out.state = JointState::kSliding;
    }
  }

  // Section 5.3: tau_t = (tau_u, tau_w), f_n = lambda[0] > 0 here.
  const Eigen::Vector2d d = centre_of_pressure(lambda[0], lambda.segment<2>(4));
  const PatchProjection projected = project_onto_patch(d);  // Section 5.4
  out.pressure_point = projected.point;
  const Eigen::Vector3d r(0, projected.point.x(), projected.point.y());  // p - c in (n, u, w)
  if (projected.inside) {
    // Step 5, Eqs. 11-13: the torque about n at p (p = d here) is tau_n - (r x f)_n.
    const auto spin_at = [](const Vector6d& l, const Eigen::Vector2d& p) {
      return l[3] - (p.x() * l[2] - p.y() * l[1]);  // tau_n - (r x f)_n, r = (0, p_u, p_w)
    };
    const double spin = spin_at(lambda, projected.point);
    const double bound = spin_bound(projected.point, lambda[0]);
    if (std::abs(spin) > bound) {
      const double sign = std::copysign(1.0, spin);
      lambda[3] += sign * bound - spin;  // Algorithm 1's clamp
      out.spin_clamped = true;
      if (!options.spin_resolve) {
        out.impulse_c = from_paper_order(lambda);
        return out;
      }
      // The re-solve with the spin at its bound: p and f_n move with the
      // solution and the bound with them, so it is repeated from the new
      // centre of pressure until the spin there is at the bound there.
      Eigen::Vector2d p = projected.point;
      Vector6d candidate = lambda;
      for (int round = 0; round < kSpinRounds && !out.spin_resolved; ++round) {
        const std::optional<Vector6d> solved =
            solve_with_spin_at(S, e, sign * spin_bound(p, candidate[0]), p,
                               out.state == JointState::kSliding ? &q : nullptr);
        if (!solved || !((*solved)[0] > 0)) break;
        candidate = *solved;
        if (out.state == JointState::kStuck && cone_side(candidate.head<3>(), mu) != ConeSide::kInside) break;
        if (out.state == JointState::kSliding && !(candidate.head<3>().dot(q) > 0)) break;
        // The spin torque must oppose the relative spin it leaves (friction does no positive work).
        if (sign * (e + S * candidate)[3] > 0) break;
        const PatchProjection moved = project_onto_patch(centre_of_pressure(candidate[0], candidate.segment<2>(4)));
        if (!moved.inside) break;
        p = moved.point;
        const double at_p = spin_at(candidate, p), bound_p = spin_bound(p, candidate[0]);
        out.spin_resolved = std::abs(at_p - sign * bound_p) <= kSpinTolerance * bound_p;
      }
      if (out.spin_resolved) {
        lambda = candidate;
        out.pressure_point = p;
      }
    }
    out.impulse_c = from_paper_order(lambda);
    return out;
  }
  // Section 5.5: a point contact at p. T = [I, -[r]; 0, I] moves the twist's
  // point to p; only the force rows are needed: P S_p P^T and P e_p.
  Eigen::Matrix<double, 3, 6> T_l;
  T_l << Eigen::Matrix3d::Identity(), -spatial::skew<double>(r);
  const Eigen::Matrix3d S_p = T_l * S * T_l.transpose();
  const Eigen::Vector3d e_p = T_l * e;
  Eigen::Vector3d f = S_p.llt().solve(-e_p);  // Eq. 8
  out.state = JointState::kRolling;
  switch (cone_side(f, mu)) {
    case ConeSide::kPolar: return out.state = JointState::kSeparating, out;
    case ConeSide::kInside: break;
    case ConeSide::kOutside: {
      const Eigen::Vector3d q_p = cone_direction(f, mu);
      const double size = size_along(S_p, e_p, q_p);  // Eq. 10
      if (size == 0) return out.state = JointState::kSeparating, out;
      f = size * q_p;
      out.state = JointState::kRollingSliding;
    }
  }
  lambda << f, r.cross(f);  // the force at p, moved back to c (Eq. 7)
  out.impulse_c = from_paper_order(lambda);
  return out;
}

PointProjection project_point(const Eigen::Matrix3d& S, const Eigen::Vector3d& e, const Eigen::Vector3d& lambda,
                              double mu) {
  check_arguments(Eigen::Vector2d::Zero(), mu, "point contact projection");
  if (!S.allFinite() || !e.allFinite() || !lambda.allFinite())
    throw InputError("point contact projection: non-finite Schur complement, velocity or impulse");
  if (!(S(2, 2) > 0 && S(0, 0) + S(1, 1) > 0))
    throw ComputationError("point contact projection: the Schur complement is not positive definite");
  PointProjection out;
  Eigen::Vector3d f = lambda;
  f.z() -= (e + S * f).z() / S(2, 2);  // 1. normal
  if (!(f.z() > 0)) return out;
  f.head<2>() -= 2 / (S(0, 0) + S(1, 1)) * (e + S * f).head<2>();  // 2. tangential
  const double f_t = f.head<2>().norm();
  out.state = JointState::kStuck;
  if (f_t > mu * f.z()) {
    f.head<2>() *= mu * f.z() / f_t;
    out.state = JointState::kSliding;
  }
  out.impulse = f;
  return out;
}

}  // namespace contactref::volume_contact
