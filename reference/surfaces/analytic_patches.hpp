#pragma once
// Analytic surfaces with closed-form derivatives to third order: the exact
// references for every later test. Their charts are part of the scene format:
//
//   plane       c(u, v) = (u, v, 0)                                  unbounded, normal +z
//   ellipsoid   c(s, t) = (a cos s, b sin s cos t, c sin s sin t)    s in (0, pi), t periodic;
//               poles on the x axis, normal c_s x c_t outward
//   torus       c(s, t) = ((R + r cos t) cos s, (R + r cos t) sin s, r sin t)
//               both periodic, normal outward
//   cylinder    c(s, t) = (r cos s, r sin s, t)                      s periodic, t unbounded,
//               axis z, normal outward
//   paraboloid  c(u, v) = (u, v, (k1 u^2 + k2 v^2) / 2)              unbounded, normal +z
//               side; k1, k2 are the principal curvatures at the apex
#include <boost/math/constants/constants.hpp>

#include "reference/surfaces/patch.hpp"

namespace contactref::surfaces {

// d^k/dx^k cos x and sin x from (cos x, sin x).
template <class T>
T cos_derivative(int k, const T& cos_x, const T& sin_x) {
  switch (k % 4) {
    case 0: return cos_x;
    case 1: return -sin_x;
    case 2: return -cos_x;
    default: return sin_x;
  }
}
template <class T>
T sin_derivative(int k, const T& cos_x, const T& sin_x) {
  return cos_derivative(k + 3, cos_x, sin_x);
}

template <class T>
class PlanePatch final : public Patch<T> {
 public:
  PlanePatch() : domain_(Domain<T>::make_chart({}, {})) {}
  PatchJet<T> evaluate(const T& u, const T& v) const override {
    PatchJet<T> jet;
    jet.d.col(0) << u, v, T(0);
    jet.d(0, jet_index(1, 0)) = T(1);
    jet.d(1, jet_index(0, 1)) = T(1);
    return jet;
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "plane"; }

 private:
  Domain<T> domain_;
};

template <class T>
class EllipsoidPatch final : public Patch<T> {
 public:
  // Semi-axes a, b, c (m) along x, y, z; all positive (checked).
  explicit EllipsoidPatch(const Vec3<T>& semi_axes);
  PatchJet<T> evaluate(const T& s, const T& t) const override {
    using std::cos;
    using std::sin;
    const T cs = cos(s), ss = sin(s), ct = cos(t), st = sin(t);
    PatchJet<T> jet;
    for (int k = 0; k < kJetSize; ++k) {
      const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1];
      jet.d(0, k) = j == 0 ? T(axes_.x() * cos_derivative(i, cs, ss)) : T(0);
      jet.d(1, k) = axes_.y() * sin_derivative(i, cs, ss) * cos_derivative(j, ct, st);
      jet.d(2, k) = axes_.z() * sin_derivative(i, cs, ss) * sin_derivative(j, ct, st);
    }
    return jet;
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "ellipsoid"; }
  // s = acos(x / a), t = atan2(z / c, y / b) (x / a clamped to [-1, 1]).
  std::optional<Vec2<T>> parameters_of(const Vec3<T>& point) const override;
  const Vec3<T>& semi_axes() const { return axes_; }

 private:
  Vec3<T> axes_;
  Domain<T> domain_;
};

template <class T>
class TorusPatch final : public Patch<T> {
 public:
  // Major radius R > minor radius r > 0 (m), checked.
  TorusPatch(const T& major, const T& minor);
  PatchJet<T> evaluate(const T& s, const T& t) const override {
    using std::cos;
    using std::sin;
    const T cs = cos(s), ss = sin(s), ct = cos(t), st = sin(t);
    PatchJet<T> jet;
    for (int k = 0; k < kJetSize; ++k) {
      const int i = kJetOrders[std::size_t(k)][0], j = kJetOrders[std::size_t(k)][1];
      const T radial = j == 0 ? T(major_ + minor_ * ct) : T(minor_ * cos_derivative(j, ct, st));
      jet.d(0, k) = cos_derivative(i, cs, ss) * radial;
      jet.d(1, k) = sin_derivative(i, cs, ss) * radial;
      jet.d(2, k) = i == 0 ? T(minor_ * sin_derivative(j, ct, st)) : T(0);
    }
    return jet;
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "torus"; }

 private:
  T major_, minor_;
  Domain<T> domain_;
};

template <class T>
class CylinderPatch final : public Patch<T> {
 public:
  explicit CylinderPatch(const T& radius);
  PatchJet<T> evaluate(const T& s, const T& t) const override {
    using std::cos;
    using std::sin;
    const T cs = cos(s), ss = sin(s);
    PatchJet<T> jet;
    for (int i = 0; i <= 3; ++i) {
      jet.d(0, jet_index(i, 0)) = radius_ * cos_derivative(i, cs, ss);
      jet.d(1, jet_index(i, 0)) = radius_ * sin_derivative(i, cs, ss);
    }
    jet.d(2, 0) = t;
    jet.d(2, jet_index(0, 1)) = T(1);
    return jet;
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "cylinder"; }

 private:
  T radius_;
  Domain<T> domain_;
};

template <class T>
class ParaboloidPatch final : public Patch<T> {
 public:
  // Principal curvatures k1, k2 (1/m) at the apex; any sign, finite.
  ParaboloidPatch(const T& k1, const T& k2);
  PatchJet<T> evaluate(const T& u, const T& v) const override {
    PatchJet<T> jet;
    jet.d.col(0) << u, v, (k1_ * u * u + k2_ * v * v) / 2;
    jet.d.col(jet_index(1, 0)) << T(1), T(0), k1_ * u;
    jet.d.col(jet_index(0, 1)) << T(0), T(1), k2_ * v;
    jet.d(2, jet_index(2, 0)) = k1_;
    jet.d(2, jet_index(0, 2)) = k2_;
    return jet;
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return "paraboloid"; }

 private:
  T k1_, k2_;
  Domain<T> domain_;
};

}  // namespace contactref::surfaces
