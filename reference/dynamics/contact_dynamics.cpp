#include "reference/dynamics/contact_dynamics.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <array>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "reference/dynamics/small_solves.hpp"
#include "reference/spatial/newton_euler.hpp"

namespace contactref::dynamics {

namespace {

template <class T>
void check_finite(const T* data, Eigen::Index n, const std::string& what) {
  using std::isfinite;
  for (Eigen::Index k = 0; k < n; ++k)
    if (!isfinite(data[k])) throw InputError("contact dynamics: " + what + " has a non-finite entry");
}

// y = (q, r') of the mode: its size and finite entries.
template <class T>
void check_state(ContactMode mode, const StateVector<T>& y) {
  static const char* const names[10] = {"s", "t", "u", "v", "psi", "s'", "t'", "u'", "v'", "psi'"};
  const int n = velocity_dimension(mode);
  if (y.size() != 5 + n) {
    throw InputError("contact dynamics state: the " + std::string(to_string(mode)) + " mode needs " +
                     std::to_string(5 + n) + " entries (q and " + std::to_string(n) + " velocities), got " +
                     std::to_string(y.size()));
  }
  for (int k = 0; k < 5 + n; ++k) {
    using std::isfinite;
    if (isfinite(y(k))) continue;
    if (k >= 5 && twist_coordinates(mode))
      throw InputError("contact dynamics state: the velocity of row " + std::to_string(free_rows(mode)[std::size_t(k - 5)]) +
                       " of phi_1c is not finite");
    // The reduced velocities of no-slip and no-spin are u', v'(, psi'); of no-roll psi'.
    const int name = k < 5 || n == 5 ? k : mode == ContactMode::kNoRoll ? 9 : k + 2;
    throw InputError(std::string("contact dynamics state: ") + names[name] + " is not finite");
  }
}

template <class T>
void check_law(const FrictionLaw<T>& law) {
  const std::pair<const char*, const T*> coefficients[] = {
      {"mu", &law.mu}, {"mu_roll", &law.mu_roll}, {"mu_spin", &law.mu_spin}, {"damping", &law.damping}};
  for (const auto& [name, value] : coefficients) {
    using std::isfinite;
    if (!isfinite(*value) || *value < T(0)) {
      std::ostringstream os;
      os << "contact dynamics: the friction coefficient " << name << " must be finite and >= 0, got " << *value;
      throw InputError(os.str());
    }
  }
}

// x / |x|, or zero for x = 0.
template <class T, int N>
Eigen::Matrix<T, N, 1> unit_or_zero(const Eigen::Matrix<T, N, 1>& x) {
  const T norm = x.norm();
  return norm > T(0) ? Eigen::Matrix<T, N, 1>(x / norm) : Eigen::Matrix<T, N, 1>::Zero();
}

// Eq. 28 on the free rows at the fixed size N (the mode's n): the rows
// `rows` of (I_5 | -mu) f_1c, A x = rhs with A = F M H_r S and rhs = F b,
// where W_1c = Ad_1_1c^T M H_r S holds the columns of M H_r S as wrenches in
// frame 1c and b_1c = Ad_1_1c^T b (F = (I_5 | -mu) Ad_1_1c^T applied to
// them, without forming the 6x6 Ad). The rows are equilibrated and solved
// by LU with partial pivoting; `condition` is the 1-norm condition number of
// the equilibrated A. `singular` makes the error to throw.
template <class T, int N, class MakeError>
Eigen::Matrix<T, N, 1> solve_free_rows(const Eigen::Matrix<T, 6, N>& W_1c, const Vec6<T>& b_1c, const std::array<int, 5>& rows,
                                       const Vec5<T>& mu, const T& pivot_floor, T& condition, const MakeError& singular) {
  small_solves::Square<T, N> A;
  Eigen::Matrix<T, N, 1> rhs;
  for (int i = 0; i < N; ++i) {
    const int row = rows[std::size_t(i)];
    A.row(i) = W_1c.row(row) - mu(row) * W_1c.row(5);
    rhs(i) = b_1c(row) - mu(row) * b_1c(5);
    const T row_max = A.row(i).cwiseAbs().maxCoeff();  // equilibrate the rows
    if (!(row_max > T(0))) throw singular("F M H_r has a zero row");
    A.row(i) /= row_max;
    rhs(i) /= row_max;
  }
  const Eigen::PartialPivLU<small_solves::Square<T, N>> lu(A);
  condition = small_solves::condition_number<T, N>(A, small_solves::lu_inverse_columns<T, N>(lu));
  if (!(condition * pivot_floor < T(1)))
    throw singular("F M H_r is singular to working precision (conforming contact, or friction too high?)");
  return lu.solve(rhs);
}

template <class T>
T sign_of(const T& x) {
  return x > T(0) ? T(1) : x < T(0) ? T(-1) : T(0);
}

}  // namespace

template <class T>
T ContactDynamicsState<T>::stick_ratio() const {
  using std::abs;
  return f_c_1c.template segment<2>(3).norm() / abs(f_n);
}

template <class T>
T ContactDynamicsState<T>::spin_ratio() const {
  using std::abs;
  return abs(f_c_1c(2)) / abs(f_n);
}

template <class T>
ContactDynamics<T>::ContactDynamics(const T& mass, const Mat3<T>& I_com, const surfaces::Patch<T>& patch1,
                                    const surfaces::Patch<T>& patch2, const Mat4<T>& E_w_2, const Vec3<T>& gravity_w,
                                    const Vec6<T>& extra_wrench_b)
    : mass_(mass),
      body_(mass, I_com),
      patch1_(&patch1),
      patch2_(&patch2),
      E_w_2_(E_w_2),
      gravity_w_(gravity_w),
      extra_wrench_b_(extra_wrench_b) {
  using std::abs;
  check_finite(E_w_2.data(), 16, "E_w_2");
  check_finite(gravity_w.data(), 3, "gravity");
  check_finite(extra_wrench_b.data(), 6, "extra body wrench");
  const Mat3<T> R = spatial::rotation_of(E_w_2);
  if ((R.transpose() * R - Mat3<T>::Identity()).cwiseAbs().maxCoeff() > T(1e-6) || !(R.determinant() > T(0)) ||
      E_w_2.template bottomRows<1>() != Eigen::Matrix<T, 1, 4>(T(0), T(0), T(0), T(1)))
    throw InputError("contact dynamics: E_w_2 is not a rigid pose (rotation not orthonormal or bottom row not 0 0 0 1)");
}

template <class T>
ContactDynamicsState<T> ContactDynamics<T>::evaluate(const Vec10<T>& y) const {
  return evaluate(ContactMode::kFrictionless, StateVector<T>(y), FrictionLaw<T>());
}

template <class T>
ContactDynamicsState<T> ContactDynamics<T>::evaluate(ContactMode mode, const StateVector<T>& y,
                                                     const FrictionLaw<T>& law,
                                                     const LawDirections<T>& reference) const {
  const int n = velocity_dimension(mode);
  check_state(mode, y);
  check_law(law);
  const Vec5<T> q = y.template head<5>();
  const ReducedVector<T> rdot = y.tail(n);
  ContactDynamicsState<T> r;
  r.mode = mode;
  kinematics::ContactRates<T>& k = r.kinematics;  // filled in place: no copies of its 2 KB
  kinematics::set_configuration<T>(k, *patch1_, *patch2_, q);
  const ModeKinematics<T> m = mode_kinematics(mode, k, rdot);
  const Mat6<T>& M = body_.M_b;
  const Mat4<T> E_1c_1 = spatial::pose_inverse<T>(k.E_1_1c);
  r.E_w_1 = E_w_2_ * k.E_2_1;
  r.qdot = m.qdot;
  r.phi = m.H_r * rdot;
  r.phi_1c = spatial::transform_twist<T>(E_1c_1, r.phi);
  r.slip_floor = T(64) * epsilon<T>() * k.H_1c.template middleRows<2>(3).cwiseAbs().maxCoeff() * r.qdot.cwiseAbs().sum();
  r.rotation_floor = T(64) * epsilon<T>() * k.H_1c.template topRows<3>().cwiseAbs().maxCoeff() * r.qdot.cwiseAbs().sum();
  r.f_ext = extra_wrench_b_;
  r.f_ext.template tail<3>() += mass_ * (spatial::rotation_of(r.E_w_1).transpose() * gravity_w_);
  r.f_ext.template head<3>() -= law.damping * r.phi.template head<3>();
  // The right-hand side before the projection on the free directions:
  // f_ext + [phi]^T M phi - M Hdot_r r', Eq. 15's wrench at dphi = Hdot_r r' taken off.
  const Vec6<T> b = r.f_ext - spatial::newton_euler_wrench<T>(M, r.phi, m.Hdot_r_rdot);

  const T pivot_floor = T(64 * n) * epsilon<T>();
  const auto singular = [&](const char* what) {
    std::ostringstream os;
    os << "contact dynamics";
    if (mode != ContactMode::kFrictionless) os << " (" << to_string(mode) << ")";
    os << ": " << what << " for " << patch1_->describe() << " on " << patch2_->describe() << " at q = ("
       << q.transpose() << ")";
    return ComputationError(os.str());
  };
  if (mode == ContactMode::kFrictionless) {
    // Eq. 20 with the Cholesky factor of A = S (H^T M H) S, S = diag(H^T M H)^-1/2
    // (fixed 5x5).
    const kinematics::Mat65<T> H = m.H_r;
    const kinematics::Mat65<T> MH = M * H;
    const Mat5<T> A = H.transpose() * MH;
    Vec5<T> S5;
    for (int i = 0; i < 5; ++i) {
      using std::sqrt;
      S5(i) = A(i, i) > T(0) ? T(1 / sqrt(A(i, i))) : T(0);
    }
    const Mat5<T> A_scaled = S5.asDiagonal() * A * S5.asDiagonal();
    Mat5<T> L;
    if (!(S5.minCoeff() > T(0)) || !small_solves::cholesky<T, 5>(A_scaled, pivot_floor, L))
      throw singular("H^T M H is not positive definite to working precision (conforming contact?)");
    // A^-1 = L^-T L^-1 = X^T X with X = L^-1 by forward substitution, for the
    // condition number and the solve (two triangular products, a fraction of
    // Eigen's triangular solves at n = 5): X is within cond(L) eps of L^-1, so
    // the solution's forward error stays cond(L)^2 eps = cond(A) eps,
    // Cholesky's own bound.
    const Mat5<T> X = small_solves::lower_triangular_inverse<T, 5>(L);
    r.condition = small_solves::condition_number<T, 5>(A_scaled, Mat5<T>(X.transpose() * X));
    r.rddot = S5.asDiagonal() * (X.transpose() * (X * Vec5<T>(S5.asDiagonal() * Vec5<T>(H.transpose() * b))));
  } else if (n == 0) {  // rest: nothing to solve; f_c below holds the body
    r.rddot.resize(0);
    r.condition = T(1);
  } else {
    // Eqs. 24-28 on the free rows (header): F = the free rows of (I_5 | -mu) Ad_1_1c^T.
    // Jacobi column scaling S = diag(H_r^T M H_r)^-1/2 makes the pivot test
    // independent of the units of the coordinates.
    const Mat6R<T> MH = M * m.H_r;
    ReducedVector<T> S(n);
    for (int j = 0; j < n; ++j) {
      using std::sqrt;
      const T diagonal = m.H_r.col(j).dot(MH.col(j));
      S(j) = diagonal > T(0) ? T(1 / sqrt(diagonal)) : T(0);
    }
    // The columns of M H_r S and b as wrenches in frame 1c (f_1c = Ad_1_1c^T f_1).
    Mat6R<T> W_1c(6, n);
    for (int j = 0; j < n; ++j) W_1c.col(j) = spatial::transform_wrench<T>(E_1c_1, Vec6<T>(MH.col(j) * S(j)));
    const Vec6<T> b_1c = spatial::transform_wrench<T>(E_1c_1, b);
    const auto solve = [&](const Vec5<T>& mu) -> ReducedVector<T> {
      const std::array<int, 5>& rows = free_rows(mode);
      ReducedVector<T> x(n);
      switch (n) {
        case 1: x = solve_free_rows<T, 1>(W_1c.template leftCols<1>(), b_1c, rows, mu, pivot_floor, r.condition, singular); break;
        case 2: x = solve_free_rows<T, 2>(W_1c.template leftCols<2>(), b_1c, rows, mu, pivot_floor, r.condition, singular); break;
        case 3: x = solve_free_rows<T, 3>(W_1c.template leftCols<3>(), b_1c, rows, mu, pivot_floor, r.condition, singular); break;
        case 4: x = solve_free_rows<T, 4>(W_1c.template leftCols<4>(), b_1c, rows, mu, pivot_floor, r.condition, singular); break;
        default: x = solve_free_rows<T, 5>(W_1c.template leftCols<5>(), b_1c, rows, mu, pivot_floor, r.condition, singular); break;
      }
      if (!(S.minCoeff() > T(0)))
        throw singular("F M H_r is singular to working precision (conforming contact, or friction too high?)");
      return S.asDiagonal() * x;
    };
    const Vec6<T>& phi_1c = r.phi_1c;
    using std::abs;
    // Each direction: the velocity's own, kept on the reference's side
    // (header); at rest the reference's.
    const auto direction2 = [](const Eigen::Matrix<T, 2, 1>& velocity, bool moving, const Eigen::Matrix<T, 2, 1>& along,
                               bool held) -> Eigen::Matrix<T, 2, 1> {
      if (!moving || (held && along.norm() > T(0))) return along;
      const Eigen::Matrix<T, 2, 1> unit = unit_or_zero(velocity);
      return unit.dot(along) < T(0) ? Eigen::Matrix<T, 2, 1>(-unit) : unit;
    };
    LawDirections<T>& d = r.directions;
    const Eigen::Matrix<T, 2, 1> rolling = phi_1c.template head<2>();
    const bool rolling_moves = rolling.norm() > r.rotation_floor, spin_moves = abs(phi_1c(2)) > r.rotation_floor;
    d.slip = direction2(phi_1c.template segment<2>(3), r.slipping(), reference.slip, reference.slip_held);
    d.rolling = direction2(rolling, rolling_moves, reference.rolling, reference.rolling_held);
    d.slip_held = reference.slip_held;
    d.rolling_held = reference.rolling_held;
    d.spin = !spin_moves ? reference.spin : phi_1c(2) * reference.spin < T(0) ? reference.spin : sign_of(phi_1c(2));
    const auto coefficients = [&] {
      Vec5<T> mu;
      mu << law.mu_roll * d.rolling, law.mu_spin * d.spin, law.mu * d.slip;
      return mu;
    };
    // A free rolling or spin at rest with no reference has no direction for
    // its resistance to oppose: it takes the direction in which the motion
    // starts, that of the acceleration without that resistance (the limit
    // along the trajectory, so that a step from rest keeps its order).
    const bool rolling_at_rest = law.mu_roll > T(0) && !holds_rolling(mode) && !rolling_moves && d.rolling.norm() == T(0);
    const bool spin_at_rest = law.mu_spin > T(0) && !holds_spin(mode) && !spin_moves && d.spin == T(0);
    if (rolling_at_rest || spin_at_rest) {
      const ReducedVector<T> rddot = solve(coefficients());
      const Vec6<T> start_1c = k.Hdot_1c_qdot + k.H_1c * Vec5<T>(m.Pdot_rdot + m.P * rddot);
      if (rolling_at_rest) d.rolling = unit_or_zero(Eigen::Matrix<T, 2, 1>(start_1c.template head<2>()));
      if (spin_at_rest) d.spin = sign_of(start_1c(2));
    }
    if (holds_rolling(mode)) d.rolling.setZero();
    if (holds_spin(mode)) d.spin = T(0);
    if (holds_slip(mode)) d.slip.setZero();
    const Vec5<T> mu = coefficients();
    r.rddot = solve(mu);
  }

  // Eq. 19 by back-substitution.
  r.qddot = n == 5 ? Vec5<T>(r.rddot) : Vec5<T>(m.Pdot_rdot + m.P * r.rddot);  // n = 5: P = I, Pdot = 0
  r.dphi = m.Hdot_r_rdot + m.H_r * r.rddot;
  r.f_c = spatial::newton_euler_wrench<T>(M, r.phi, r.dphi) - r.f_ext;
  r.f_c_1c = spatial::transform_wrench<T>(E_1c_1, r.f_c);
  r.f_n = -r.f_c_1c(5);
  r.separating = r.f_n < T(0);
  r.derivative.resize(5 + n);
  r.derivative << m.qdot, r.rddot;
  r.energy = energy_of(r.phi, r.E_w_1);
  r.power = r.phi.dot(r.f_c + extra_wrench_b_) - law.damping * r.phi.template head<3>().squaredNorm();
  if (!r.derivative.allFinite() || !r.f_c.allFinite()) {
    std::ostringstream os;
    os << "contact dynamics (" << to_string(mode) << "): non-finite acceleration for " << patch1_->describe() << " on "
       << patch2_->describe() << " at q = (" << q.transpose() << ")";
    throw ComputationError(os.str());
  }
  return r;
}

template <class T>
ReducedVector<T> ContactDynamics<T>::project(ContactMode mode, const Vec5<T>& q, const Vec5<T>& qdot) const {
  using Square = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, 0, 5, 5>;
  const kinematics::ContactConfiguration<T> c = kinematics::contact_configuration<T>(*patch1_, *patch2_, q);
  const Mat6R<T> H_r = c.H_1 * reduced_velocity_map(mode, c.H_1c);
  if (H_r.cols() == 0) return ReducedVector<T>(0);  // rest: nothing free
  const Mat6R<T> MH = body_.M_b * H_r;
  const Eigen::LDLT<Square> ldlt(Square(H_r.transpose() * MH));
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive()) {
    std::ostringstream os;
    os << "contact dynamics: cannot project onto the " << to_string(mode) << " velocities at q = (" << q.transpose()
       << "): H_r^T M H_r is singular";
    throw ComputationError(os.str());
  }
  return ldlt.solve(ReducedVector<T>(MH.transpose() * (c.H_1 * qdot)));
}

template <class T>
T ContactDynamics<T>::energy(const Vec10<T>& y) const {
  return energy(ContactMode::kFrictionless, StateVector<T>(y));
}

template <class T>
T ContactDynamics<T>::energy(ContactMode mode, const StateVector<T>& y) const {
  check_state(mode, y);
  const int n = velocity_dimension(mode);
  const kinematics::ContactConfiguration<T> c =
      kinematics::contact_configuration<T>(*patch1_, *patch2_, Vec5<T>(y.template head<5>()));
  const Vec6<T> phi = c.H_1 * (reduced_velocity_map(mode, c.H_1c) * ReducedVector<T>(y.tail(n)));
  return energy_of(phi, Mat4<T>(E_w_2_ * c.E_2_1));
}

template <class T>
T ContactDynamics<T>::energy_of(const Vec6<T>& phi, const Mat4<T>& E_w_1) const {
  return spatial::kinetic_energy<T>(body_.M_b, phi) - mass_ * gravity_w_.dot(spatial::translation_of<T>(E_w_1));
}

#define CONTACTREF_INSTANTIATE(T) \
  template struct ContactDynamicsState<T>; \
  template class ContactDynamics<T>;
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
