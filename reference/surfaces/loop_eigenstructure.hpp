#pragma once
// Stam's evaluation of a Loop patch with one extraordinary vertex (EV) of
// valence N, ingredients per valence (Stam 1998; Kry's thesis 5.1):
//   A      (K x K, K = N + 6): subdivision matrix taking the K control
//          vertices of the EV patch to those of its EV child at the next level;
//   Pick_k (12 x K), k = 1, 2, 3: the 12 control vertices of the regular
//          child k (Stam's P_k Abar);
//   A = V diag(lambda) V^-1, eigenvalues in decreasing order.
// They are derived, not typed in: the canonical local mesh of valence N is
// subdivided once with the Loop rules (loop_subdivision.hpp) and the children's
// neighbourhoods are read off the result; the eigen-decomposition is computed
// numerically in T (double, or 50 digits): eigenvalues by Eigen's EigenSolver,
// grouped into clusters of equal values, and for each cluster a real basis of
// the null space of A - lambda I. A cluster whose null space is smaller than
// its multiplicity is a Jordan block (valence 3 has one at 1/16): A is then not
// diagonalisable and the patch falls back to explicit powers of A.
#include <Eigen/Core>

#include "reference/surfaces/loop_rules.hpp"
#include "reference/surfaces/patch_jet.hpp"

namespace contactref::surfaces {

template <class T> using DynamicMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T> using DynamicVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
// K x 15 with K <= kMaxLoopValence + 6, on the stack.
inline constexpr int kMaxLoopControl = 30;
template <class T>
using ChildPolynomials = Eigen::Matrix<T, Eigen::Dynamic, 15, 0, kMaxLoopControl, 15>;

template <class T>
struct LoopEigenstructure {
  int valence = 0;
  DynamicMatrix<T> A;                      // K x K
  std::array<DynamicMatrix<T>, 3> pick;    // children 1..3 (at q, at r, middle): 12 x K
  DynamicVector<T> eigenvalues;            // decreasing, with multiplicity
  bool diagonalisable = false;
  DynamicMatrix<T> V, V_inverse;           // right eigenvectors (columns) and their inverse; empty if not diagonalisable
  std::array<DynamicMatrix<T>, 3> pick_V;  // pick[k] * V
  // (pick[k] V)^T times the regular basis: row j holds the quartic monomial
  // coefficients of child k's surface for a unit eigen-component j.
  std::array<ChildPolynomials<T>, 3> child_polynomials;
  // The limit position of the EV: the left eigenvector of eigenvalue 1,
  // normalised to sum 1.
  DynamicVector<T> limit_mask;
};

// The eigenstructure of valence N (3 <= N <= kMaxLoopValence), computed on
// first use and cached (thread-safe).
template <class T>
const LoopEigenstructure<T>& loop_eigenstructure(int valence);

// The children of the EV patch in the parameters of their parent, face
// (0,0), (1,0), (0,1) with the EV at (0,0): child k has corners
// (origin, origin + e1, origin + e2) of its own parameters, mapped affinely:
//   1 (at q):    local = (2u - 1, 2v)
//   2 (at r):    local = (2u, 2v - 1)
//   3 (middle):  local = (1 - 2u, 1 - 2v)   (flipped: odd derivatives change sign)
//   0 (at the EV): local = (2u, 2v)
struct LoopChildMap {
  int sign_u, sign_v;    // local = sign * 2 * (u, v) + offset
  double offset_u, offset_v;
};
inline constexpr std::array<LoopChildMap, 4> kLoopChildMaps = {
    {{1, 1, 0.0, 0.0}, {1, 1, -1.0, 0.0}, {1, 1, 0.0, -1.0}, {-1, -1, 1.0, 1.0}}};

}  // namespace contactref::surfaces
