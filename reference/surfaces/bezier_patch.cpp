#include "reference/surfaces/bezier_patch.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/number_text.hpp"

namespace contactref::surfaces {

template <class T>
std::array<std::array<T, 4>, 4> cubic_bernstein_derivatives(const T& x) {
  const T y = T(1) - x;
  // B_0 = y^3, B_1 = 3 x y^2, B_2 = 3 x^2 y, B_3 = x^3 and their derivatives
  // (d/dx y = -1).
  return {{{y * y * y, 3 * x * y * y, 3 * x * x * y, x * x * x},
           {-3 * y * y, 3 * y * y - 6 * x * y, 6 * x * y - 3 * x * x, 3 * x * x},
           {6 * y, 6 * x - 12 * y, 6 * y - 12 * x, 6 * x},
           {T(-6), T(18), T(-18), T(6)}}};
}

namespace {

// Every entry of the jet is a sum over the net with weights d^p B_i(s) d^q B_j(t)
// whose absolute values sum to at most 144 on [0, 1]^2 (sum_i |d^p B_i| <= 1, 6,
// 24, 48 for p = 0..3; the largest product with p + q <= 3 is 24 * 6, for
// duuv and duvv), and so is every partial sum of evaluate(): with coordinates
// at most 2^(max_exponent - 8), 144 times that stays below the largest T.
template <class T>
void check_control_point(const Vec3<T>& point, std::size_t k) {
  using std::abs;
  using std::isfinite;
  using std::ldexp;
  const int exponent = std::numeric_limits<T>::max_exponent - 8;  // 2^1016 for double
  const T limit = ldexp(T(1), exponent);
  const std::string name = "control point " + std::to_string(k) + " (row " + std::to_string(k / 4) + ", column " +
                           std::to_string(k % 4) + ")";
  for (int i = 0; i < 3; ++i) {
    if (!isfinite(point(i))) throw InputError(name + " is not finite");
    if (abs(point(i)) > limit) {
      std::ostringstream os;
      os << name << " has a coordinate " << double(point(i)) << " beyond 2^" << exponent << " = " << double(limit)
         << ": its derivatives (up to 144 times the control points) would overflow";
      throw InputError(os.str());
    }
  }
}

}  // namespace

std::array<Vec3<double>, 16> read_bezier_net(const std::filesystem::path& path) {
  std::istringstream file(read_input_file(path, "the Bezier control net"));
  std::array<Vec3<double>, 16> net;
  std::size_t count = 0;
  std::string text;
  for (int line = 1; std::getline(file, text); ++line) {
    const std::string where = path.string() + ":" + std::to_string(line) + ": ";
    std::istringstream words(text.substr(0, text.find('#')));
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    if (fields.empty()) continue;
    if (fields.size() != 3) throw InputError(where + "expected three numbers \"x y z\"");
    Vec3<double> point;
    for (int k = 0; k < 3; ++k) {
      const std::optional<double> x = parse_double(fields[std::size_t(k)]);
      if (!x) throw InputError(where + "expected three numbers \"x y z\", '" + fields[std::size_t(k)] + "' is not a number");
      if (!std::isfinite(*x)) throw InputError(where + "coordinate " + non_finite_reason(fields[std::size_t(k)]));
      point(k) = *x;
    }
    if (count == 16) throw InputError(where + "more than 16 control points");
    try {
      check_control_point(point, count);
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
    net[count++] = point;
  }
  if (count != 16) throw InputError(path.string() + ": a bicubic net needs 16 control points, found " + std::to_string(count));
  return net;
}

template <class T>
BezierPatch<T>::BezierPatch(const std::array<Vec3<T>, 16>& control)
    : control_(control),
      domain_(Domain<T>::make_polygon({Vec2<T>(0, 0), Vec2<T>(1, 0), Vec2<T>(1, 1), Vec2<T>(0, 1)})) {
  for (std::size_t k = 0; k < 16; ++k) check_control_point(control[k], k);
}

template <class T>
PatchJet<T> BezierPatch<T>::evaluate(const T& s, const T& t) const {
  const auto Bs = cubic_bernstein_derivatives(s);
  const auto Bt = cubic_bernstein_derivatives(t);
  // row[p][j] = sum_i d^p B_i(s) P_ij, then c_(p,q) = sum_j d^q B_j(t) row[p][j].
  std::array<std::array<Vec3<T>, 4>, 4> row;
  for (std::size_t p = 0; p < 4; ++p) {
    for (std::size_t j = 0; j < 4; ++j) {
      row[p][j] = Bs[p][0] * control_[j] + Bs[p][1] * control_[4 + j] + Bs[p][2] * control_[8 + j] +
                  Bs[p][3] * control_[12 + j];
    }
  }
  PatchJet<T> jet;
  for (int k = 0; k < kJetSize; ++k) {
    const auto p = std::size_t(kJetOrders[std::size_t(k)][0]), q = std::size_t(kJetOrders[std::size_t(k)][1]);
    jet.d.col(k) = Bt[q][0] * row[p][0] + Bt[q][1] * row[p][1] + Bt[q][2] * row[p][2] + Bt[q][3] * row[p][3];
  }
  return jet;
}

#define CONTACTREF_INSTANTIATE(T) \
  template class BezierPatch<T>; \
  template std::array<std::array<T, 4>, 4> cubic_bernstein_derivatives<T>(const T&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
