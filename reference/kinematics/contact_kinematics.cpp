#include "reference/kinematics/contact_kinematics.hpp"

#include <initializer_list>
#include <sstream>
#include <string>

#include "reference/spatial/adjoint.hpp"

namespace contactref::kinematics {
namespace {

// Whether x's entries are all finite: finite entries times 0 sum to 0, any
// other to NaN, in one vectorised pass (at x's own size), where Eigen's
// allFinite compares entry by entry.
template <class Derived>
bool all_finite(const Eigen::DenseBase<Derived>& x) {
  using T = typename Derived::Scalar;
  return (x.derived().array() * T(0)).sum() == T(0);
}

// The jet of `patch` at (a, b), checked finite and regular (Eq. 5 needs
// c_s x c_t != 0).
template <class T>
surfaces::PatchJet<T> regular_jet(const surfaces::Patch<T>& patch, const T& a, const T& b, const char* body) {
  try {
    const surfaces::PatchJet<T> jet = patch.evaluate(a, b);
    if (!all_finite(jet.d)) {
      std::ostringstream os;
      os << patch.describe() << " evaluates to a non-finite jet at (" << a << ", " << b << ")";
      throw ComputationError(os.str());
    }
    surfaces::check_regular(jet, patch, a, b);
    return jet;
  } catch (const ComputationError& e) {
    throw ComputationError(std::string("contact kinematics, ") + body + ": " + e.what());
  }
}

// dE_1c_2c / dpsi = [R'_psi 0; 0 0], R'_psi = [-sin -cos; -cos sin] in its
// tangential block, read off E_1c_2c = frame_alignment(psi) (cos psi =
// E(0, 0), sin psi = -E(0, 1)): no second sin and cos.
template <class T>
Mat4<T> frame_alignment_derivative(const Mat4<T>& E_1c_2c) {
  const T c = E_1c_2c(0, 0), s = -E_1c_2c(0, 1);
  Mat4<T> dE = Mat4<T>::Zero();
  dE.template topLeftCorner<2, 2>() << -s, -c, -c, s;
  return dE;
}

// InputError unless q' is finite.
template <class T>
void check_rates(const Vec5<T>& qdot) {
  if (qdot.allFinite()) return;
  std::ostringstream os;
  os << "contact kinematics: the contact coordinate rates must be finite, got q' = (" << qdot.transpose() << ")";
  throw InputError(os.str());
}

}  // namespace

template <class T>
Mat4<T> frame_alignment(const T& psi) {
  using std::cos;
  using std::sin;
  const T c = cos(psi), s = sin(psi);
  Mat3<T> R;
  R << c, -s, T(0), -s, -c, T(0), T(0), T(0), T(-1);
  return spatial::make_pose<T>(R, Vec3<T>::Zero());
}

// A result to check: its name and its entries.
template <class T>
struct NamedResult {
  const char* name;
  const T* entries;
  Eigen::Index size;
};

// Throws ComputationError naming the first of `results` that is not finite.
// `where` names the arguments.
template <class T>
void check_finite_results(std::initializer_list<NamedResult<T>> results, const char* where, const Vec5<T>& arguments) {
  for (const NamedResult<T>& result : results) {
    if (all_finite(Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(result.entries, result.size))) continue;
    const char* const name = result.name;
    std::ostringstream os;
    os << "contact kinematics: " << name << " overflows (not representable) at " << where << " = ("
       << arguments.transpose() << ")";
    throw ComputationError(os.str());
  }
}

template <class T>
ContactConfiguration<T> contact_configuration(const surfaces::Patch<T>& patch1, const surfaces::Patch<T>& patch2,
                                              const Vec5<T>& q) {
  ContactConfiguration<T> k;
  set_configuration(k, patch1, patch2, q);
  return k;
}

template <class T>
void set_configuration(ContactConfiguration<T>& k, const surfaces::Patch<T>& patch1, const surfaces::Patch<T>& patch2,
                       const Vec5<T>& q) {
  if (!q.allFinite()) {
    std::ostringstream os;
    os << "contact kinematics: the contact coordinates must be finite, got q = (" << q.transpose() << ")";
    throw InputError(os.str());
  }
  k.jet1 = regular_jet(patch1, q(0), q(1), "body 1");
  k.jet2 = regular_jet(patch2, q(2), q(3), "body 2");
  k.frame1 = contact_frame(k.jet1);
  k.frame2 = contact_frame(k.jet2);
  k.psi = q(4);
  k.E_1_1c = k.frame1.E_b_bc;
  k.E_2_2c = k.frame2.E_b_bc;
  k.E_1c_2c = frame_alignment(q(4));
  k.E_2_1 = k.E_2_2c * k.E_1c_2c * spatial::pose_inverse(k.E_1_1c);  // Eq. 9 with E_2c_1c = E_1c_2c

  // Eqs. 50-56 for the velocity of body 1 relative to body 2 (header comment):
  // phi(2,1) = -phi(1,1c) - phi(1c,2c) + phi(2,2c) in frame 1c.
  // Ad_1c_2c = blockdiag(R_psi, R_psi) (Eq. 52), applied without forming it.
  k.H_1c.template leftCols<2>() = -k.frame1.H_bc;
  k.H_1c.template middleCols<2>(2) = spatial::transform_twist(k.E_1c_2c, k.frame2.H_bc);
  k.H_1c.col(4) << T(0), T(0), T(1), T(0), T(0), T(0);  // -(Eq. 54)
  k.H_1 = spatial::transform_twist(k.E_1_1c, k.H_1c);
  check_finite_results<T>({{"E_2_1", k.E_2_1.data(), k.E_2_1.size()},
                           {"H_1c", k.H_1c.data(), k.H_1c.size()},
                           {"H_1", k.H_1.data(), k.H_1.size()}},
                          "q", q);
}

template <class T>
ContactKinematics<T> contact_kinematics(const ContactConfiguration<T>& configuration, const Vec5<T>& qdot) {
  ContactKinematics<T> k{configuration, {}, {}};
  set_rates(k, qdot);
  return k;
}

template <class T>
void set_rates(ContactKinematics<T>& k, const Vec5<T>& qdot) {
  check_rates(qdot);
  const ContactFrame<T>& frame1 = k.frame1;
  const ContactFrame<T>& frame2 = k.frame2;
  const FrameJacobianPartials<T> partials1 = frame_jacobian_partials(k.jet1), partials2 = frame_jacobian_partials(k.jet2);
  // Eq. 57, negated as H_1c, and with its second Ad read as Ad_1c_2c (misprinted
  // Ad_1_1c): Hdot_1c = ( -d/dt ^{1c}H_1 | dAd_1c_2c ^{2c}H_2 + Ad_1c_2c d/dt ^{2c}H_2 | 0 ),
  // d/dt ^{1c}H_1 = H_1,s s' + H_1,t t', d/dt ^{2c}H_2 = H_2,u u' + H_2,v v',
  // dAd_1c_2c = blockdiag(R'_psi, R'_psi) psi'.
  const Mat62<T> Hdot_frame1 = partials1.H_bc_s * qdot(0) + partials1.H_bc_t * qdot(1);
  const Mat62<T> Hdot_frame2 = partials2.H_bc_s * qdot(2) + partials2.H_bc_t * qdot(3);
  const Mat4<T> dE_1c_2c = frame_alignment_derivative(k.E_1c_2c) * qdot(4);
  k.Hdot_1c.template leftCols<2>() = -Hdot_frame1;
  k.Hdot_1c.template middleCols<2>(2) = spatial::transform_twist_rate(k.E_1c_2c, dE_1c_2c, frame2.H_bc, Hdot_frame2);
  k.Hdot_1c.col(4).setZero();

  // Thesis Eq. 4.18: Hdot_1 = dAd_1_1c H_1c + Ad_1_1c Hdot_1c, with
  // dE_1_1c = [Theta_s s' + Theta_t t', c_s s' + c_t t'; 0 0].
  const Mat4<T> dE_1_1c = frame1.E_b_bc_s * qdot(0) + frame1.E_b_bc_t * qdot(1);
  k.Hdot_1 = spatial::transform_twist_rate(k.E_1_1c, dE_1_1c, k.H_1c, k.Hdot_1c);
  // The jets are finite, but products with large rates or curvatures may not be.
  check_finite_results<T>({{"Hdot_1c", k.Hdot_1c.data(), k.Hdot_1c.size()}, {"Hdot_1", k.Hdot_1.data(), k.Hdot_1.size()}},
                          "q'", qdot);
}

template <class T>
void set_hdot_qdot(ContactRates<T>& k, const Vec5<T>& qdot) {
  check_rates(qdot);
  // set_rates' Hdot_1c and Hdot_1 times q': the frames' rates along their own
  // (s', t') and (u', v'), and Ad_1c_2c's along psi'.
  const Vec6<T> rate_frame1 = frame_jacobian_rate(k.jet1, k.frame1, qdot(0), qdot(1));
  const Vec6<T> rate_frame2 = frame_jacobian_rate(k.jet2, k.frame2, qdot(2), qdot(3));
  const Mat4<T> dE_1c_2c = frame_alignment_derivative(k.E_1c_2c) * qdot(4);
  const Vec6<T> twist_frame2 = k.frame2.H_bc * qdot.template segment<2>(2);
  k.Hdot_1c_qdot = spatial::transform_twist_rate<T, 1>(k.E_1c_2c, dE_1c_2c, twist_frame2, rate_frame2) - rate_frame1;
  const Mat4<T> dE_1_1c = k.frame1.E_b_bc_s * qdot(0) + k.frame1.E_b_bc_t * qdot(1);
  k.Hdot_1_qdot = spatial::transform_twist_rate<T, 1>(k.E_1_1c, dE_1_1c, Vec6<T>(k.H_1c * qdot), k.Hdot_1c_qdot);
  check_finite_results<T>({{"Hdot_1c q'", k.Hdot_1c_qdot.data(), 6}, {"Hdot_1 q'", k.Hdot_1_qdot.data(), 6}}, "q'",
                          qdot);
}

template <class T>
ContactKinematics<T> contact_kinematics(const surfaces::Patch<T>& patch1, const surfaces::Patch<T>& patch2,
                                        const Vec5<T>& q, const Vec5<T>& qdot) {
  if (!q.allFinite() || !qdot.allFinite()) {
    std::ostringstream os;
    os << "contact kinematics: the contact coordinates must be finite, got q = (" << q.transpose() << "), q' = ("
       << qdot.transpose() << ")";
    throw InputError(os.str());
  }
  return contact_kinematics(contact_configuration(patch1, patch2, q), qdot);
}

template <class T>
Eigen::Matrix<T, 2, 2> relative_curvature(const ContactConfiguration<T>& configuration) {
  const Eigen::Matrix<T, 2, 2> A = configuration.E_1c_2c.template topLeftCorner<2, 2>();
  return curvature(configuration.frame1) + A * curvature(configuration.frame2) * A.transpose();
}

#define CONTACTREF_INSTANTIATE(T) \
  template Mat4<T> frame_alignment<T>(const T&); \
  template Eigen::Matrix<T, 2, 2> relative_curvature<T>(const ContactConfiguration<T>&); \
  template ContactConfiguration<T> contact_configuration<T>(const surfaces::Patch<T>&, const surfaces::Patch<T>&, const Vec5<T>&); \
  template void set_configuration<T>(ContactConfiguration<T>&, const surfaces::Patch<T>&, const surfaces::Patch<T>&, const Vec5<T>&); \
  template ContactKinematics<T> contact_kinematics<T>(const ContactConfiguration<T>&, const Vec5<T>&); \
  template void set_rates<T>(ContactKinematics<T>&, const Vec5<T>&); \
  template void set_hdot_qdot<T>(ContactRates<T>&, const Vec5<T>&); \
  template ContactKinematics<T> contact_kinematics<T>(const surfaces::Patch<T>&, const surfaces::Patch<T>&, const Vec5<T>&, const Vec5<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::kinematics
