#include "robust_geometry/crossing_point.hpp"

#include <CGAL/Lazy_exact_nt.h>

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

#include "robust_geometry/filtered_sign.hpp"

namespace contactref::robust_geometry::detail {

namespace {

using ET = FT::ET;

// A lazy number computed in one node from `Count` operands: its interval
// given, its exact value Exact{}(the operands' exact values) on the first
// request, after which the operands are released, as CGAL's own nodes do
// (CGAL/Lazy_exact_nt.h, Lazy_exact_binary).
template <std::size_t Count, class Exact>
class Node final : public CGAL::Lazy_exact_nt_rep<ET> {
 public:
  Node(const Approximation& approximation, std::array<FT, Count> operands)
      : CGAL::Lazy_exact_nt_rep<ET>(approximation), operands_(std::move(operands)) {}

  void update_exact() const override {
    auto* exact = new ET(std::apply([](const auto&... x) { return ET(Exact{}(x.exact()...)); }, operands_));
    if (!this->approx().is_point()) this->set_at(exact);
    this->set_ptr(exact);
    for (FT& x : operands_) x.reset();
  }

 private:
  mutable std::array<FT, Count> operands_;
};

// t = vp / (vp - vq), vp = n . p + d and vq = n . q + d, for any number type.
struct Parameter {
  template <class N>
  N operator()(const N& n0, const N& n1, const N& n2, const N& d, const N& p0, const N& p1, const N& p2, const N& q0,
               const N& q1, const N& q2) const {
    const N vp = n0 * p0 + n1 * p1 + n2 * p2 + d;
    const N vq = n0 * q0 + n1 * q1 + n2 * q2 + d;
    return N(vp / (vp - vq));
  }
};

// p + t (q - p), one coordinate.
struct Coordinate {
  template <class N>
  N operator()(const N& p, const N& q, const N& t) const {
    return N(p + t * (q - p));
  }
};

}  // namespace

Vec crossing_point(const Vec& p, const Vec& q, const XPlane& plane) {
  const std::array<FT, 10> operands{plane.n[0], plane.n[1], plane.n[2], plane.d, p[0], p[1], p[2], q[0], q[1], q[2]};
  CGAL::Protect_FPU_rounding<true> protect;
  const Approximation t_approximation =
      std::apply([](const auto&... x) { return Parameter{}(x.approx()...); }, operands);
  const FT t(new Node<10, Parameter>(t_approximation, operands));
  Vec x;
  for (std::size_t k = 0; k < 3; ++k)
    x[k] = FT(new Node<3, Coordinate>(Coordinate{}(p[k].approx(), q[k].approx(), t_approximation), {p[k], q[k], t}));
  return x;
}

}  // namespace contactref::robust_geometry::detail
