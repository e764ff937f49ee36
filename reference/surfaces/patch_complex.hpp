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

// An atlas instead (chart_margin > 0): the patches are overlapping charts of
// one closed analytic surface, each with an inverse (Patch::parameters_of).
// A contact may use chart f while its first parameter stays within
// [s.lo + chart_margin, s.hi - chart_margin] of f's domain; when it leaves
// that band (towards a pole, where the chart degenerates) it continues on
// another chart that holds the point inside its own band (the simulator
// switches, dynamics/patch_transition.hpp switch_chart).
template <class T>
struct PatchComplex {
  std::vector<std::unique_ptr<Patch<T>>> patches;
  std::vector<std::vector<EdgeLink>> links;  // links[f][e]
  T chart_margin = T(0);                     // > 0: an atlas of charts

  bool is_atlas() const { return chart_margin > T(0); }
  // The signed distance of s from the ends of chart f's band (positive inside).
  T band_distance(int f, const T& s) const {
    const Interval<T>& range = patches[std::size_t(f)]->domain().s;
    using std::min;
    return min(T(s - (range.lo + chart_margin)), T((range.hi - chart_margin) - s));
  }

  // The parameter along the neighbour's edge of a point at fraction alpha
  // along edge e of patch f.
  static T neighbour_fraction(const T& alpha) { return T(1) - alpha; }
};

}  // namespace contactref::surfaces
