#pragma once
// A set of patches that tile a closed surface, with the adjacency of their
// domain edges: edge e of patch f (from domain vertex e to e + 1) is shared
// with edge `edge` of patch `patch`, and a point at fraction alpha along it is
// at fraction 1 - alpha along the neighbour's edge (the shared boundary curve
// is traversed in opposite directions; Kry & Pai Section 3.5).
#include <memory>
#include <vector>

#include "reference/surfaces/patch.hpp"

namespace contactref::surfaces {

struct EdgeLink {
  int patch = -1;
  int edge = -1;
};

template <class T>
struct PatchComplex {
  std::vector<std::unique_ptr<Patch<T>>> patches;
  std::vector<std::vector<EdgeLink>> links;  // links[f][e]

  // The parameter along the neighbour's edge of a point at fraction alpha
  // along edge e of patch f.
  static T neighbour_fraction(const T& alpha) { return T(1) - alpha; }
};

}  // namespace contactref::surfaces
