#include "reference/dynamics/patch_transition.hpp"

#include <Eigen/QR>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reference/dynamics/contact_modes.hpp"
#include "reference/spatial/adjoint.hpp"

namespace contactref::dynamics {
namespace {

using surfaces::Patch;
using kinematics::Mat65;

// The point at fraction alpha along edge e of a polygon domain (Eq. 41).
template <class T>
surfaces::Vec2<T> edge_point(const std::vector<surfaces::Vec2<T>>& polygon, int e, const T& alpha) {
  const surfaces::Vec2<T>& P_e = polygon[std::size_t(e)];
  const surfaces::Vec2<T>& P_e1 = polygon[(std::size_t(e) + 1) % polygon.size()];
  return P_e + alpha * (P_e1 - P_e);
}

// Eq. 6: E_b_bc of `patch` at x, checked regular (Eq. 5 needs c_s x c_t != 0).
template <class T>
Mat4<T> contact_frame_at(const Patch<T>& patch, const surfaces::Vec2<T>& x, const std::string& who) {
  try {
    const surfaces::PatchJet<T> jet = patch.evaluate(x.x(), x.y());
    surfaces::check_regular(jet, patch, x.x(), x.y());
    return kinematics::contact_frame(jet).E_b_bc;
  } catch (const ComputationError& e) {
    throw ComputationError(who + ": " + e.what());
  }
}

// Eq. 43's Hhat: the 5 rows of H_f (6 x 5, in contact frame f = 1c or 2c)
// other than its normal row. In either contact frame the normal row is the
// linear-z row 5 (no rate of q moves body 1 along the common normal, and
// z_2c = -z_1c with a shared origin), while the angular-z row 2 carries the
// spin psi' (entry +-1): checked here, not assumed.
template <class T>
Mat5<T> without_normal_row(const Mat65<T>& H_f, const std::string& who) {
  if (!(H_f.row(5).cwiseAbs().maxCoeff() <= T(64) * epsilon<T>() * H_f.cwiseAbs().maxCoeff())) {
    std::ostringstream os;
    os << who << ": the normal row of H is not zero: (" << H_f.row(5) << ")";
    throw ComputationError(os.str());
  }
  return H_f.template topRows<5>();
}

// Eqs. 42-43: the contact coordinates and rates with this body's point at
// parameters q_B on patch B, for the same physical configuration and motion
// as (q_A, qdot) on patch A (q_B's entries of the other body, and its psi,
// are those of q_A; psi is recomputed here).
template <class T>
std::pair<Vec5<T>, Vec5<T>> re_express(int body, const Patch<T>& patch_A, const Vec5<T>& q_A, const Patch<T>& patch_B,
                                       Vec5<T> q_B, const Patch<T>& other_patch, const Vec5<T>& qdot,
                                       const std::string& at_edge) {
  using std::atan2;
  const Eigen::Index i = body == 1 ? 0 : 2;  // this body's entries of q
  // The kinematics with this body on `patch` (its errors prefixed with the edge).
  const auto kinematics_on = [&](const Patch<T>& patch, const Vec5<T>& q_p) {
    try {
      return body == 1 ? kinematics::contact_kinematics(patch, other_patch, q_p, qdot)
                       : kinematics::contact_kinematics(other_patch, patch, q_p, qdot);
    } catch (const ComputationError& e) {
      throw ComputationError(at_edge + ": " + e.what());
    }
  };
  const kinematics::ContactKinematics<T> k_A = kinematics_on(patch_A, q_A);

  // Eq. 42: the contact frame of body b turns about its normal z by theta from
  // x^A to x^B (E_b_bcB = E_b_bcA Rz(theta), both frames at the same point).
  // With R_psi = F Rz(psi), F = diag(1, -1, -1) (Eq. 7), and F Rz(a) F = Rz(-a):
  //  - body 1: E_2c_1cB = R_psiA Rz(theta) = F Rz(psiA + theta), so psiB = psiA + theta;
  //  - body 2: E_2cB_1c = Rz(-theta) R_psiA = F Rz(theta) Rz(psiA), so again
  //    psiB = psiA + theta, with body 2's own axes and normal z_2c.
  // The same sign for both bodies; the tests confirm it by E_2_1 before and after.
  const Mat4<T>& E_b_bcA = body == 1 ? k_A.E_1_1c : k_A.E_2_2c;
  const Mat4<T> E_b_bcB = contact_frame_at(patch_B, surfaces::Vec2<T>(q_B.template segment<2>(i)), at_edge);
  const Vec3<T> x_A = E_b_bcA.template block<3, 1>(0, 0), z = E_b_bcA.template block<3, 1>(0, 2);
  const Vec3<T> x_B = E_b_bcB.template block<3, 1>(0, 0);
  q_B(4) = q_A(4) + atan2(x_A.cross(x_B).dot(z), x_A.dot(x_B));

  // Eq. 43: Hhat^B q'^B = Hhat^A q'^A in the contact frame of the other body,
  // which the transition leaves in place: 2c for body 1 (H_2c = Ad_2c_1c H_1c
  // with E_2c_1c = E_1c_2c, Eq. 7), 1c for body 2.
  const kinematics::ContactKinematics<T> k_B = kinematics_on(patch_B, q_B);
  const Mat65<T> H_f_A = body == 1 ? Mat65<T>(spatial::adjoint(k_A.E_1c_2c) * k_A.H_1c) : k_A.H_1c;
  const Mat65<T> H_f_B = body == 1 ? Mat65<T>(spatial::adjoint(k_B.E_1c_2c) * k_B.H_1c) : k_B.H_1c;
  const Mat5<T> Hhat_A = without_normal_row(H_f_A, at_edge);
  const Mat5<T> Hhat_B = without_normal_row(H_f_B, at_edge);
  Eigen::ColPivHouseholderQR<Mat5<T>> qr(Hhat_B);
  // Conforming contact (K1 + K~2 singular) leaves sigma_5 / sigma_1 at the
  // round-off of H's entries, below 64 eps (kinematics tests); R's diagonal
  // reveals that ratio to within a small factor: 1024 eps flags it.
  qr.setThreshold(T(1024) * epsilon<T>());
  if (qr.rank() < 5) {
    std::ostringstream os;
    os << at_edge << " into " << patch_B.describe() << ": Eq. 43 is singular (conforming contact), |R_ii| = ("
       << qr.matrixQR().diagonal().cwiseAbs().transpose() << ")";
    throw ComputationError(os.str());
  }
  const Vec5<T> rhs = Hhat_A * qdot;
  return {q_B, Vec5<T>(qr.solve(rhs))};
}


}  // namespace

template <class T>
PatchTransition<T> transit_edge(const surfaces::PatchComplex<T>& complex, int body, int from_patch, int edge,
                                const T& alpha, const surfaces::Patch<T>& other_patch, const Vec5<T>& q,
                                const Vec5<T>& qdot) {
  if (body != 1 && body != 2) throw InputError("patch transition: body must be 1 or 2, got " + std::to_string(body));
  const std::string who = "patch transition, body " + std::to_string(body);
  if (from_patch < 0 || std::size_t(from_patch) >= complex.patches.size()) {
    throw InputError(who + ": patch " + std::to_string(from_patch) + " is out of range (the complex has " +
                     std::to_string(complex.patches.size()) + " patches)");
  }
  const Patch<T>& patch_A = *complex.patches[std::size_t(from_patch)];
  const std::vector<surfaces::Vec2<T>>& polygon_A = patch_A.domain().polygon;
  if (polygon_A.empty()) throw InputError(who + ": " + patch_A.describe() + " is a chart: it has no edges to cross");
  if (edge < 0 || std::size_t(edge) >= polygon_A.size()) {
    throw InputError(who + ": edge " + std::to_string(edge) + " of " + patch_A.describe() +
                     " is out of range (it has " + std::to_string(polygon_A.size()) + " edges)");
  }
  const std::string at_edge = who + ", edge " + std::to_string(edge) + " of " + patch_A.describe();
  if (!(alpha >= T(0) && alpha <= T(1))) {
    std::ostringstream os;
    os << at_edge << ": the fraction along the edge must be in [0, 1], got " << alpha;
    throw InputError(os.str());
  }
  surfaces::EdgeLink link;  // patch -1: no neighbour
  if (std::size_t(from_patch) < complex.links.size() &&
      std::size_t(edge) < complex.links[std::size_t(from_patch)].size())
    link = complex.links[std::size_t(from_patch)][std::size_t(edge)];
  if (link.patch < 0)
    throw ComputationError(who + ": the contact left the surface at edge " + std::to_string(edge) + " of " +
                           patch_A.describe() + " (no neighbouring patch)");
  if (std::size_t(link.patch) >= complex.patches.size() || link.edge < 0 ||
      std::size_t(link.edge) >= complex.patches[std::size_t(link.patch)]->domain().polygon.size()) {
    throw InputError(at_edge + ": the complex links it to edge " + std::to_string(link.edge) + " of patch " +
                     std::to_string(link.patch) + ", which does not exist");
  }
  const Patch<T>& patch_B = *complex.patches[std::size_t(link.patch)];

  // Eq. 41: the crossing point on A, and the same point on B at fraction
  // g(alpha) = 1 - alpha along the neighbour's edge (traversed the other way).
  const Eigen::Index i = body == 1 ? 0 : 2;  // this body's entries of q
  Vec5<T> q_A = q;
  q_A.template segment<2>(i) = edge_point(polygon_A, edge, alpha);
  Vec5<T> q_B = q_A;
  q_B.template segment<2>(i) =
      edge_point(patch_B.domain().polygon, link.edge, surfaces::PatchComplex<T>::neighbour_fraction(alpha));

  const std::pair<Vec5<T>, Vec5<T>> moved = re_express(body, patch_A, q_A, patch_B, q_B, other_patch, qdot, at_edge);
  return PatchTransition<T>{link.patch, link.edge, moved.first, moved.second};
}

template <class T>
PatchTransition<T> switch_chart(const surfaces::PatchComplex<T>& complex, int body, int from_patch,
                                const surfaces::Patch<T>& other_patch, const Vec5<T>& q, const Vec5<T>& qdot) {
  if (body != 1 && body != 2) throw InputError("chart switch: body must be 1 or 2, got " + std::to_string(body));
  const std::string who = "chart switch, body " + std::to_string(body);
  if (!complex.is_atlas()) throw InputError(who + ": the complex is not an atlas of charts");
  if (from_patch < 0 || std::size_t(from_patch) >= complex.patches.size()) {
    throw InputError(who + ": chart " + std::to_string(from_patch) + " is out of range (the atlas has " +
                     std::to_string(complex.patches.size()) + " charts)");
  }
  const Patch<T>& patch_A = *complex.patches[std::size_t(from_patch)];
  const Eigen::Index i = body == 1 ? 0 : 2;  // this body's entries of q
  const Vec3<T> point = patch_A.evaluate(q(i), q(i + 1)).c();
  // The chart that holds the point deepest inside its band.
  int best = -1;
  T best_depth = T(0);
  surfaces::Vec2<T> best_x;
  for (std::size_t f = 0; f < complex.patches.size(); ++f) {
    if (int(f) == from_patch) continue;
    const std::optional<surfaces::Vec2<T>> x = complex.patches[f]->parameters_of(point);
    if (!x) continue;
    const T depth = complex.band_distance(int(f), x->x());
    if (depth > best_depth) best = int(f), best_depth = depth, best_x = *x;
  }
  if (best < 0) {
    std::ostringstream os;
    os << who << ": no other chart of the atlas holds the point (" << point.transpose() << ") of "
       << patch_A.describe() << " inside its band";
    throw ComputationError(os.str());
  }
  Vec5<T> q_B = q;
  q_B.template segment<2>(i) = best_x;
  const std::pair<Vec5<T>, Vec5<T>> moved =
      re_express(body, patch_A, q, *complex.patches[std::size_t(best)], q_B, other_patch, qdot,
                 who + ", from chart " + std::to_string(from_patch) + " to chart " + std::to_string(best));
  return PatchTransition<T>{best, -1, moved.first, moved.second};
}

#define CONTACTREF_INSTANTIATE(T) \
  template PatchTransition<T> transit_edge<T>(const surfaces::PatchComplex<T>&, int, int, int, const T&, const surfaces::Patch<T>&, const Vec5<T>&, const Vec5<T>&); \
  template PatchTransition<T> switch_chart<T>(const surfaces::PatchComplex<T>&, int, int, const surfaces::Patch<T>&, const Vec5<T>&, const Vec5<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
