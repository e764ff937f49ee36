#pragma once
// Internal to robust_geometry: the exact sign of a polynomial in lazy exact
// numbers (exact_pieces.hpp's FT), filtered: evaluated on their interval
// approximations first, on their exact values only where the interval holds
// 0. The polynomial is written once, as a generic callable of a reader
// (Approximate or Exactly) that maps an FT to the number type of the stage,
// so that vectors derived from lazy ones (differences, combinations,
// projections) enter a sign with no lazy number constructed for them: a
// lazy construction costs an allocation, and its free, for each operation.
#include <CGAL/Interval_nt.h>

#include <array>
#include <type_traits>

#include "robust_geometry/exact_pieces.hpp"

namespace contactref::robust_geometry::detail {

using Approximation = CGAL::Interval_nt<false>;

struct Approximate {
  const Approximation& operator()(const FT& x) const { return x.approx(); }
};
struct Exactly {
  const FT::ET& operator()(const FT& x) const { return CGAL::exact(x); }
};

// Vectors of either stage's numbers, and the few operations on them.
template <class N>
using Vec3 = std::array<N, 3>;
template <class Read>
auto read(const Vec& v, const Read& r) {
  using N = std::decay_t<decltype(r(v[0]))>;
  return Vec3<N>{N(r(v[0])), N(r(v[1])), N(r(v[2]))};
}
template <class N>
Vec3<N> minus(const Vec3<N>& a, const Vec3<N>& b) {
  return {N(a[0] - b[0]), N(a[1] - b[1]), N(a[2] - b[2])};
}
template <class N>
Vec3<N> plus(const Vec3<N>& a, const Vec3<N>& b) {
  return {N(a[0] + b[0]), N(a[1] + b[1]), N(a[2] + b[2])};
}
template <class N>
Vec3<N> negated(const Vec3<N>& a) {
  return {N(-a[0]), N(-a[1]), N(-a[2])};
}
template <class N>
Vec3<N> times(const N& s, const Vec3<N>& a) {
  return {N(s * a[0]), N(s * a[1]), N(s * a[2])};
}
template <class N>
Vec3<N> times(int s, const Vec3<N>& a) {
  return times(N(s), a);
}
template <class N>
N dot(const Vec3<N>& a, const Vec3<N>& b) {
  return N(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
}
template <class N>
Vec3<N> cross(const Vec3<N>& a, const Vec3<N>& b) {
  return {N(a[1] * b[2] - a[2] * b[1]), N(a[2] * b[0] - a[0] * b[2]), N(a[0] * b[1] - a[1] * b[0])};
}

// The exact sign (-1, 0, 1) of value(reader).
template <class Value>
int filtered_sign(const Value& value) {
  {
    CGAL::Protect_FPU_rounding<true> protect;
    const Approximation v = value(Approximate{});
    if (v.inf() > 0) return 1;
    if (v.sup() < 0) return -1;
    if (v.inf() == 0 && v.sup() == 0) return 0;
  }
  return static_cast<int>(CGAL::sign(value(Exactly{})));
}

// Whether vector(reader) is exactly zero.
template <class Vector>
bool filtered_is_zero(const Vector& vector) {
  {
    CGAL::Protect_FPU_rounding<true> protect;
    for (const Approximation& x : vector(Approximate{}))
      if (x.inf() > 0 || x.sup() < 0) return false;
  }
  for (const auto& x : vector(Exactly{}))
    if (CGAL::sign(x) != CGAL::ZERO) return false;
  return true;
}

// Vector sources for the signs below: callables of a reader that give a
// vector in the reader's numbers. source(v) reads a Vec; a Derived vector
// is computed from others.
inline auto source(const Vec& v) {
  return [&v](const auto& r) { return read(v, r); };
}
// A vector derived from lazy ones by `recipe` (a source), held as its
// interval approximation, computed once, and evaluated exactly on each
// exact request (rare: where an interval holds 0).
template <class Recipe>
class Derived {
 public:
  explicit Derived(Recipe recipe) : recipe_(std::move(recipe)) {
    CGAL::Protect_FPU_rounding<true> protect;
    approximation_ = recipe_(Approximate{});
  }
  const Vec3<Approximation>& operator()(const Approximate&) const { return approximation_; }
  Vec3<FT::ET> operator()(const Exactly& exactly) const { return recipe_(exactly); }
  const Recipe& recipe() const { return recipe_; }

 private:
  Recipe recipe_;
  Vec3<Approximation> approximation_;
};

// A Vec with its interval approximation kept beside it (in a contiguous
// table, say, where reading it touches one cache line instead of its three
// lazy numbers' nodes): a source.
struct Approximated {
  const Vec& exact;
  const Vec3<Approximation>& approximation;
  const Vec3<Approximation>& operator()(const Approximate&) const { return approximation; }
  Vec3<FT::ET> operator()(const Exactly& exactly) const { return read(exact, exactly); }
};

// sign(n . x + d), the side of x (a source) of the plane n . x + d = 0.
template <class X>
int side_of_plane(const Vec& n, const FT& d, const X& x) {
  return filtered_sign([&](const auto& r) {
    auto v = dot(read(n, r), x(r));
    v += r(d);
    return v;
  });
}

// sign(a . b).
template <class A, class B>
int dot_sign_of(const A& a, const B& b) {
  return filtered_sign([&](const auto& r) { return dot(a(r), b(r)); });
}
// sign(a . (b x c)).
template <class A, class B, class C>
int triple_sign_of(const A& a, const B& b, const C& c) {
  return filtered_sign([&](const auto& r) { return dot(a(r), cross(b(r), c(r))); });
}
// Whether a x b = 0.
template <class A, class B>
bool parallel_of(const A& a, const B& b) {
  return filtered_is_zero([&](const auto& r) { return cross(a(r), b(r)); });
}
// sign(m . u) for u = (N . N) n - (n . N) N: the sign of
// (N . N)(m . n) - (n . N)(m . N).
template <class M, class N, class P>
int projected_dot_sign_of(const M& m, const N& n, const P& normal) {
  return filtered_sign([&](const auto& r) {
    const auto mr = m(r), nr = n(r), Nr = normal(r);
    return decltype(dot(mr, nr))(dot(Nr, Nr) * dot(mr, nr) - dot(nr, Nr) * dot(mr, Nr));
  });
}
// sign(n . (e x w)) for w = (m . u) q - (m . q) u: the sign of
// (m . u) (n . (e x q)) - (m . q) (n . (e x u)).
template <class N, class E, class M, class U, class Q>
int crossing_triple_sign_of(const N& n, const E& e, const M& m, const U& u, const Q& q) {
  return filtered_sign([&](const auto& r) {
    const auto nr = n(r), er = e(r), mr = m(r), ur = u(r), qr = q(r);
    return decltype(dot(mr, ur))(dot(mr, ur) * dot(nr, cross(er, qr)) - dot(mr, qr) * dot(nr, cross(er, ur)));
  });
}

}  // namespace contactref::robust_geometry::detail
