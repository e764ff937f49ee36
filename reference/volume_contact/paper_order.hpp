#pragma once
// The one place where Bouchard et al.'s ordering of spatial vectors meets ours
// (DESIGN.md, "Numerical conventions").
//
// Ours: a wrench is (torque; force) and a twist (omega; v), in the contact
// frame of contact_patch.hpp with axes (u, w, n) = (the ellipse's major axis,
// its minor axis, the normal).
// The paper's (Section 3, Eqs. 4-10): a wrench is (force; torque) and a twist
// (v; omega), in the contact frame (n, u, w) with the normal first: its
// R = [e_1^T 0; 0 I] of Eq. 6 picks the normal force, and Q = [q 0; 0 I] of
// Eq. 5 keeps the three torques. (n, u, w) is a cyclic permutation of
// (u, w, n), so both frames are right-handed and the same rotation.
//
// So paper = Pi ours with the permutation
//   paper (f_n, f_u, f_w, tau_n, tau_u, tau_w) = ours (5, 3, 4, 2, 0, 1),
// for wrenches and twists alike, and a matrix mapping wrenches to twists
// (the Schur complement S) becomes Pi S Pi^T.
#include <Eigen/Core>

namespace contactref::volume_contact {

using Vector6d = Eigen::Matrix<double, 6, 1>;
using Matrix6d = Eigen::Matrix<double, 6, 6>;

// Index k of the paper's vector holds entry kFromOurs[k] of ours.
inline constexpr int kFromOurs[6] = {5, 3, 4, 2, 0, 1};

inline Vector6d to_paper_order(const Vector6d& ours) {
  Vector6d paper;
  for (int k = 0; k < 6; ++k) paper[k] = ours[kFromOurs[k]];
  return paper;
}

inline Vector6d from_paper_order(const Vector6d& paper) {
  Vector6d ours;
  for (int k = 0; k < 6; ++k) ours[kFromOurs[k]] = paper[k];
  return ours;
}

inline Matrix6d to_paper_order(const Matrix6d& ours) {
  Matrix6d paper;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) paper(i, j) = ours(kFromOurs[i], kFromOurs[j]);
  return paper;
}

}  // namespace contactref::volume_contact
