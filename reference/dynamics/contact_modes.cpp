#include "reference/dynamics/contact_modes.hpp"

#include <Eigen/LU>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "reference/spatial/adjoint.hpp"

namespace contactref::dynamics {

const char* to_string(ContactMode mode) {
  switch (mode) {
    case ContactMode::kFrictionless: return "frictionless";
    case ContactMode::kSliding: return "sliding";
    case ContactMode::kNoSlip: return "no-slip";
    case ContactMode::kNoSpin: return "no-spin";
    case ContactMode::kNoRoll: return "no-roll";
    case ContactMode::kRest: return "rest";
    case ContactMode::kSlidingNoSpin: return "sliding-no-spin";
    case ContactMode::kSlidingNoRoll: return "sliding-no-roll";
    case ContactMode::kSlidingNoRollNoSpin: return "sliding-no-roll-no-spin";
  }
  return "?";
}

const char* to_string(VelocityGroup group) {
  switch (group) {
    case kRollingGroup: return "rolling";
    case kSpinGroup: return "spin";
    case kSlipGroup: return "slip";
  }
  return "?";
}

unsigned held_groups(ContactMode mode) {
  switch (mode) {
    case ContactMode::kFrictionless:
    case ContactMode::kSliding: return 0;
    case ContactMode::kNoSlip: return kSlipGroup;
    case ContactMode::kNoSpin: return kSlipGroup | kSpinGroup;
    case ContactMode::kNoRoll: return kSlipGroup | kRollingGroup;
    case ContactMode::kRest: return kSlipGroup | kSpinGroup | kRollingGroup;
    case ContactMode::kSlidingNoSpin: return kSpinGroup;
    case ContactMode::kSlidingNoRoll: return kRollingGroup;
    case ContactMode::kSlidingNoRollNoSpin: return kSpinGroup | kRollingGroup;
  }
  return 0;
}

ContactMode friction_mode_holding(unsigned groups) {
  static constexpr ContactMode kByGroups[8] = {
      ContactMode::kSliding,       ContactMode::kSlidingNoRoll, ContactMode::kSlidingNoSpin,
      ContactMode::kSlidingNoRollNoSpin, ContactMode::kNoSlip,  ContactMode::kNoRoll,
      ContactMode::kNoSpin,        ContactMode::kRest};
  return kByGroups[groups & 7u];
}

int velocity_dimension(ContactMode mode) {
  const unsigned held = held_groups(mode);
  return 5 - ((held & kRollingGroup) ? 2 : 0) - ((held & kSpinGroup) ? 1 : 0) - ((held & kSlipGroup) ? 2 : 0);
}

const std::array<int, 5>& free_rows(ContactMode mode) {
  static constexpr std::array<int, 5> kPrefix = {0, 1, 2, 3, 4}, kSpinOnly = {2, 0, 0, 0, 0},
                                      kNoSpin = {0, 1, 3, 4, 0}, kNoRoll = {2, 3, 4, 0, 0}, kSlipOnly = {3, 4, 0, 0, 0};
  switch (mode) {
    case ContactMode::kNoRoll: return kSpinOnly;
    case ContactMode::kSlidingNoSpin: return kNoSpin;
    case ContactMode::kSlidingNoRoll: return kNoRoll;
    case ContactMode::kSlidingNoRollNoSpin: return kSlipOnly;
    default: return kPrefix;
  }
}

namespace {

template <class T> using Mat2 = Eigen::Matrix<T, 2, 2>;
template <class T> using Row2 = Eigen::Matrix<T, 1, 2>;

// A^-1 B for an upper-triangular 2x2 A with a nonzero diagonal (Eq. 31's A,
// header), by back substitution with the diagonal's reciprocals, the
// operations of Eigen's triangular solve without its general blocked path
// (many times their cost at 2x2).
template <class T, int N>
Eigen::Matrix<T, 2, N> upper_triangular_solve(const Mat2<T>& A, const Eigen::Matrix<T, 2, N>& B) {
  Eigen::Matrix<T, 2, N> X;
  X.row(1) = B.row(1) * (1 / A(1, 1));
  X.row(0) = (B.row(0) - A(0, 1) * X.row(1)) * (1 / A(0, 0));
  return X;
}

// Eq. 31: D = -A^-1 B; A is triangular (header), solved as such.
template <class T>
Mat2<T> slip_map(const kinematics::Mat65<T>& H_1c) {
  return -upper_triangular_solve<T, 2>(H_1c.template block<2, 2>(3, 0), H_1c.template block<2, 2>(3, 2));
}

// Eq. 37: G = -(H_1c[2, 0..1] D + H_1c[2, 2..3]) / H_1c[2, 4].
template <class T>
Row2<T> spin_map(const kinematics::Mat65<T>& H_1c, const Mat2<T>& D) {
  return -(H_1c.template block<1, 2>(2, 0) * D + H_1c.template block<1, 2>(2, 2)) / H_1c(2, 4);
}

// H5 = rows 0..4 of H_1c (header: the sliding modes that hold a group), factored.
template <class T>
Eigen::PartialPivLU<Mat5<T>> twist_rows(const kinematics::Mat65<T>& H_1c) {
  return Eigen::PartialPivLU<Mat5<T>>(Mat5<T>(H_1c.template topRows<5>()));
}

// E: the free columns of I_5.
template <class T>
Mat5R<T> free_columns(ContactMode mode) {
  const int n = velocity_dimension(mode);
  Mat5R<T> E = Mat5R<T>::Zero(5, n);
  for (int i = 0; i < n; ++i) E(free_rows(mode)[std::size_t(i)], i) = T(1);
  return E;
}

}  // namespace

template <class T>
Mat5R<T> reduced_velocity_map(ContactMode mode, const kinematics::Mat65<T>& H_1c) {
  const int n = velocity_dimension(mode);
  if (n == 5) return Mat5R<T>::Identity(5, 5);
  if (twist_coordinates(mode)) return twist_rows(H_1c).solve(free_columns<T>(mode));  // P = H5^-1 E
  Mat5R<T> P = Mat5R<T>::Zero(5, n);
  if (mode == ContactMode::kNoRoll) P(4, 0) = T(1);  // psi' alone
  if (n <= 1) return P;
  const Mat2<T> D = slip_map(H_1c);
  P.template block<2, 2>(0, 0) = D;                       // (s', t') = D (u', v')
  P.template block<2, 2>(2, 0).setIdentity();             // (u', v')
  if (mode == ContactMode::kNoSlip) {
    P(4, 2) = T(1);                                       // psi'
  } else {
    P.template block<1, 2>(4, 0) = spin_map(H_1c, D);     // psi' = G (u', v')
  }
  return P;
}

template <class T>
ModeKinematics<T> mode_kinematics(ContactMode mode, kinematics::ContactRates<T>& k, const ReducedVector<T>& rdot) {
  const int n = velocity_dimension(mode);
  if (rdot.size() != n || !rdot.allFinite()) {
    std::ostringstream os;
    os << "contact mode " << to_string(mode) << ": need " << n << " finite reduced velocities, got (" << rdot.transpose()
       << ")";
    throw InputError(os.str());
  }
  ModeKinematics<T> m{mode, reduced_velocity_map(mode, k.H_1c), {}, {}, Vec5<T>::Zero(), {}};
  m.qdot = n == 5 ? Vec5<T>(rdot) : Vec5<T>(m.P * rdot);  // P = I: q' = r'
  kinematics::set_hdot_qdot(k, m.qdot);
  // Pdot r' (header), zero where P is constant (n = 5, no-roll, rest).
  if (twist_coordinates(mode)) {
    m.Pdot_rdot = -twist_rows(k.H_1c).solve(Vec5<T>(k.Hdot_1c_qdot.template head<5>()));
  } else if (n == 2 || n == 3) {  // no-slip, no-spin
    const Eigen::Matrix<T, 2, 1> Ddot_uv = -upper_triangular_solve<T, 1>(
        Mat2<T>(k.H_1c.template block<2, 2>(3, 0)), Eigen::Matrix<T, 2, 1>(k.Hdot_1c_qdot.template segment<2>(3)));
    m.Pdot_rdot.template head<2>() = Ddot_uv;
    if (mode == ContactMode::kNoSpin)
      m.Pdot_rdot(4) = -(k.Hdot_1c_qdot(2) + k.H_1c.template block<1, 2>(2, 0).dot(Ddot_uv.transpose())) / k.H_1c(2, 4);
  }
  m.H_r = n == 5 ? Mat6R<T>(k.H_1) : Mat6R<T>(k.H_1 * m.P);
  m.Hdot_r_rdot = k.Hdot_1_qdot + k.H_1 * m.Pdot_rdot;
  return m;
}

template <class T>
ReducedVector<T> reduced_velocities(ContactMode mode, const kinematics::Mat65<T>& H_1c, const Vec5<T>& qdot) {
  const int n = velocity_dimension(mode);
  if (twist_coordinates(mode)) return free_columns<T>(mode).transpose() * Vec5<T>(H_1c.template topRows<5>() * qdot);
  if (mode == ContactMode::kNoRoll) return ReducedVector<T>(qdot.segment(4, 1));
  return n == 5 ? ReducedVector<T>(qdot) : ReducedVector<T>(qdot.segment(2, n));
}

#define CONTACTREF_INSTANTIATE(T)                                                                        \
  template Mat5R<T> reduced_velocity_map<T>(ContactMode, const kinematics::Mat65<T>&);                  \
  template ModeKinematics<T> mode_kinematics<T>(ContactMode, kinematics::ContactRates<T>&,                  \
                                                const ReducedVector<T>&);                                \
  template ReducedVector<T> reduced_velocities<T>(ContactMode, const kinematics::Mat65<T>&, const Vec5<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
