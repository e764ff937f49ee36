#pragma once
// The point and partial derivatives to third order of a parametric patch
// c(s, t) at one parameter point: Kry & Pai's "ten sets" (Section 3.7),
// c, c_s, c_t, c_ss, c_st, c_tt, c_sss, c_sst, c_stt, c_ttt.
#include <array>

#include "core/scalar.hpp"

namespace contactref::surfaces {

template <class T> using Vec2 = Eigen::Matrix<T, 2, 1>;
template <class T> using Mat2 = Eigen::Matrix<T, 2, 2>;

// Column of d^(i+j) c / ds^i dt^j in PatchJet::d: order p = i + j occupies
// columns p(p+1)/2 ... p(p+1)/2 + p, ordered by j.
constexpr int jet_index(int i, int j) { return (i + j) * (i + j + 1) / 2 + j; }
inline constexpr int kJetSize = 10;
// (i, j) of each column.
inline constexpr std::array<std::array<int, 2>, kJetSize> kJetOrders = {
    {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}, {3, 0}, {2, 1}, {1, 2}, {0, 3}}};

template <class T>
struct PatchJet {
  Eigen::Matrix<T, 3, kJetSize> d = Eigen::Matrix<T, 3, kJetSize>::Zero();

  auto c() const { return d.col(0); }
  auto c_s() const { return d.col(1); }
  auto c_t() const { return d.col(2); }
  auto c_ss() const { return d.col(3); }
  auto c_st() const { return d.col(4); }
  auto c_tt() const { return d.col(5); }
  auto c_sss() const { return d.col(6); }
  auto c_sst() const { return d.col(7); }
  auto c_stt() const { return d.col(8); }
  auto c_ttt() const { return d.col(9); }
  auto derivative(int i, int j) { return d.col(jet_index(i, j)); }
  auto derivative(int i, int j) const { return d.col(jet_index(i, j)); }
};

// The chain rule for an affine change of parameters (a, b) = J (s, t) + offset
// with J = [[a_s, a_t], [b_s, b_t]] constant: d/ds = a_s d/da + b_s d/db and
// d/dt = a_t d/da + b_t d/db, so d^(i+j)/ds^i dt^j is the product of i and j
// such linear forms, whose coefficients on d^p/da^m db^(p-m) are those of a
// polynomial product. As a linear map on the jet's columns it is a 10 x 10
// matrix, block diagonal by order, computed once per map (its blocks kept). A negative Jacobian
// (a flipped sub-triangle) negates the odd-order derivatives through J itself:
// no sign rule is needed.
template <class T>
class AffineJetMap {
 public:
  explicit AffineJetMap(const Mat2<T>& J) {
    Eigen::Matrix<T, kJetSize, kJetSize> columns = Eigen::Matrix<T, kJetSize, kJetSize>::Zero();
    for (int k = 1; k < kJetSize; ++k) {
      const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1], p = i + j;
      std::array<T, 4> coefficient{T(1), T(0), T(0), T(0)};  // on d^p / da^m db^(p - m)
      int degree = 0;
      const auto multiply = [&](const T& along_a, const T& along_b) {
        std::array<T, 4> next{T(0), T(0), T(0), T(0)};
        for (int m = 0; m <= degree; ++m) {
          next[std::size_t(m + 1)] += coefficient[std::size_t(m)] * along_a;
          next[std::size_t(m)] += coefficient[std::size_t(m)] * along_b;
        }
        coefficient = next;
        ++degree;
      };
      for (int n = 0; n < i; ++n) multiply(J(0, 0), J(1, 0));
      for (int n = 0; n < j; ++n) multiply(J(0, 1), J(1, 1));
      for (int m = 0; m <= p; ++m) columns(jet_index(m, p - m), k) = coefficient[std::size_t(m)];
    }
    first_ = columns.template block<2, 2>(1, 1);
    second_ = columns.template block<3, 3>(3, 3);
    third_ = columns.template block<4, 4>(6, 6);
  }

  // The jet in (s, t) from the jet in (a, b).
  PatchJet<T> operator()(const PatchJet<T>& jet_ab) const {
    PatchJet<T> jet_st;
    jet_st.d.col(0) = jet_ab.d.col(0);
    jet_st.d.template middleCols<2>(1).noalias() = jet_ab.d.template middleCols<2>(1).lazyProduct(first_);
    jet_st.d.template middleCols<3>(3).noalias() = jet_ab.d.template middleCols<3>(3).lazyProduct(second_);
    jet_st.d.template middleCols<4>(6).noalias() = jet_ab.d.template middleCols<4>(6).lazyProduct(third_);
    return jet_st;
  }

 private:
  // jet_st.d = jet_ab.d * columns, columns block diagonal by order: its
  // blocks of orders 1, 2 and 3 (order 0 is 1).
  Mat2<T> first_;
  Eigen::Matrix<T, 3, 3> second_;
  Eigen::Matrix<T, 4, 4> third_;
};

}  // namespace contactref::surfaces
