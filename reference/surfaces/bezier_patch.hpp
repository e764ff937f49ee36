#pragma once
// Bicubic Bezier patch (Kry's rattleback and floor, thesis App. B.1; Kry & Pai
// Table I, last row): c(s, t) = sum_ij B_i(s) B_j(t) P_ij over [0, 1]^2, with
// the control-net row index i going with s and the column index j with t.
#include <array>
#include <filesystem>

#include "reference/surfaces/patch.hpp"

namespace contactref::surfaces {

template <class T>
class BezierPatch final : public Patch<T> {
 public:
  // control[4 i + j] = P_ij. Throws InputError for a non-finite point, or a
  // coordinate beyond 2^(max_exponent - 8) (2^1016 in double), where the
  // derivatives could overflow (bezier_patch.cpp).
  explicit BezierPatch(const std::array<Vec3<T>, 16>& control);
  PatchJet<T> evaluate(const T& s, const T& t) const override;
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "bezier"; }
  const std::array<Vec3<T>, 16>& control_points() const { return control_; }

 private:
  std::array<Vec3<T>, 16> control_;
  Domain<T> domain_;
};

// Reads a bicubic net: 16 lines "x y z" (P_00, P_01, ..., P_33, row index
// with s); blank lines and '#' comments are skipped. Throws InputError naming
// the file and line (the control points checked as by BezierPatch).
std::array<Vec3<double>, 16> read_bezier_net(const std::filesystem::path& path);

// d^k/dx^k of the four cubic Bernstein polynomials at x, k = 0..3:
// basis[k][i] = d^k B_i / dx^k.
template <class T>
std::array<std::array<T, 4>, 4> cubic_bernstein_derivatives(const T& x);

}  // namespace contactref::surfaces
