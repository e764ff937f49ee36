#pragma once
// Loop's subdivision rules (Loop 1987, as OpenSubdiv's Sdc::Scheme<LOOP>; the
// variant is pinned by the tests through the eigenvalues of
// ../shared/notes/references.md section 2):
//   vertex (even) rule: (1 - N beta) v + beta sum(ring),
//       beta(N) = (5/8 - (3/8 + cos(2 pi / N) / 4)^2) / N;
//   edge (odd) rule:    3/8 (p + q) + 1/8 (r + s), r and s opposite the edge;
//   limit position:     (1 - N w) v + w sum(ring), w = 1 / (N + 3 / (8 beta)).
#include <boost/math/constants/constants.hpp>

#include "core/scalar.hpp"

namespace contactref::surfaces {

template <class T>
T loop_beta(int valence) {
  using std::cos;
  const T c = T(3) / 8 + cos(2 * boost::math::constants::pi<T>() / T(valence)) / 4;
  return (T(5) / 8 - c * c) / T(valence);
}

template <class T>
T loop_limit_edge_weight(int valence) {
  return T(1) / (T(valence) + T(3) / (8 * loop_beta<T>(valence)));
}

// The largest valence a Loop surface may have here (the eigenstructures are
// computed for 3..kMaxLoopValence).
inline constexpr int kMaxLoopValence = 24;

}  // namespace contactref::surfaces
