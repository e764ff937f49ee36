#include "reference/surfaces/loop_regular_basis.hpp"

#include <Eigen/LU>
#include <map>

namespace contactref::surfaces {
namespace {

using Point = std::pair<int, int>;
using Grid = std::map<Point, Real50>;

// The six lattice directions, counter-clockwise (e1 = (1,0), e2 = (0,1) at 60 degrees).
constexpr std::array<Point, 6> kDirections = {{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}};
// Canonical lattice positions of the 12 control vertices (loop_patch_neighbourhood).
constexpr std::array<Point, 12> kControlLattice = {
    {{0, 0}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}, {2, -1}, {2, 0}, {1, 1}, {0, 2}, {-1, 2}}};

Point add(Point a, Point b) { return {a.first + b.first, a.second + b.second}; }

// One Loop step on the regular lattice; points of the new level are in units
// of half the old spacing. Only points with a complete stencil are computed.
Grid subdivide(const Grid& old, int lo, int hi) {
  Grid next;
  const auto value = [&](Point p, bool& ok) {
    const auto it = old.find(p);
    if (it == old.end()) {
      ok = false;
      return Real50(0);
    }
    return it->second;
  };
  for (int I = 2 * lo; I <= 2 * hi; ++I) {
    for (int J = 2 * lo; J <= 2 * hi; ++J) {
      bool ok = true;
      Real50 x;
      const bool I_odd = (I % 2) != 0, J_odd = (J % 2) != 0;
      if (!I_odd && !J_odd) {  // vertex rule, valence 6: beta = 1/16
        const Point p{I / 2, J / 2};
        x = Real50(5) / 8 * value(p, ok);
        for (Point d : kDirections) x += value(add(p, d), ok) / 16;
      } else {
        Point e0, e1, o0, o1;  // edge end points and opposite vertices
        if (I_odd && !J_odd) {
          const Point p{(I - 1) / 2, J / 2};
          e0 = p, e1 = add(p, {1, 0}), o0 = add(p, {0, 1}), o1 = add(p, {1, -1});
        } else if (!I_odd && J_odd) {
          const Point p{I / 2, (J - 1) / 2};
          e0 = p, e1 = add(p, {0, 1}), o0 = add(p, {1, 0}), o1 = add(p, {-1, 1});
        } else {
          const int a = (I - 1) / 2, b = (J - 1) / 2;
          e0 = {a, b + 1}, e1 = {a + 1, b}, o0 = {a, b}, o1 = {a + 1, b + 1};
        }
        x = Real50(3) / 8 * (value(e0, ok) + value(e1, ok)) + (value(o0, ok) + value(o1, ok)) / 8;
      }
      if (ok) next[{I, J}] = x;
    }
  }
  return next;
}

Eigen::Matrix<Real50, 12, kQuarticTerms> derive_basis() {
  // The 15 sample points (i/4, j/4) of the face and the quartic's matrix there.
  std::vector<Point> samples;
  for (int i = 0; i <= 4; ++i)
    for (int j = 0; i + j <= 4; ++j) samples.push_back({i, j});
  Eigen::Matrix<Real50, kQuarticTerms, kQuarticTerms> M;
  for (std::size_t row = 0; row < samples.size(); ++row) {
    const Real50 u = Real50(samples[row].first) / 4, v = Real50(samples[row].second) / 4;
    for (std::size_t m = 0; m < kQuarticMonomials.size(); ++m)
      M(Eigen::Index(row), Eigen::Index(m)) = pow(u, kQuarticMonomials[m][0]) * pow(v, kQuarticMonomials[m][1]);
  }
  const Eigen::FullPivLU<Eigen::Matrix<Real50, kQuarticTerms, kQuarticTerms>> lu(M);
  Eigen::Matrix<Real50, 12, kQuarticTerms> basis;
  for (std::size_t k = 0; k < 12; ++k) {
    Grid level0;
    for (int i = -5; i <= 6; ++i)
      for (int j = -5; j <= 6; ++j) level0[{i, j}] = Point{i, j} == kControlLattice[k] ? Real50(1) : Real50(0);
    const Grid level2 = subdivide(subdivide(level0, -5, 6), -10, 12);
    Eigen::Matrix<Real50, kQuarticTerms, 1> limit;
    for (std::size_t row = 0; row < samples.size(); ++row) {
      const Point p = samples[row];
      Real50 x = level2.at(p) / 2;  // limit mask, valence 6: 1/2 and 1/12
      for (Point d : kDirections) x += level2.at(add(p, d)) / 12;
      limit(Eigen::Index(row)) = x;
    }
    basis.row(Eigen::Index(k)) = lu.solve(limit).transpose();
  }
  return basis;
}

}  // namespace

template <class T>
const Eigen::Matrix<T, 12, kQuarticTerms>& loop_regular_basis() {
  static const Eigen::Matrix<T, 12, kQuarticTerms> basis = derive_basis().template cast<T>();
  return basis;
}

#define CONTACTREF_INSTANTIATE(T) \
  template const Eigen::Matrix<T, 12, kQuarticTerms>& loop_regular_basis<T>();
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
