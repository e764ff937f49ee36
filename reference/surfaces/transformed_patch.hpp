#pragma once
// The scene transform of Kry's scene files (thesis App. B.1) applied to any
// patch: per-axis scale, then rotation by an angle (radians) about an axis,
// then offset: c'(s, t) = R (S c(s, t)) + offset. Derivatives transform by the
// linear part R S only.
#include <Eigen/LU>
#include <memory>
#include <string>

#include "reference/spatial/so3.hpp"
#include "reference/surfaces/patch.hpp"

namespace contactref::surfaces {

template <class T>
struct SceneTransform {
  Vec3<T> scale = Vec3<T>::Ones();
  T angle = T(0);  // radians
  Vec3<T> axis = Vec3<T>::UnitZ();
  Vec3<T> offset = Vec3<T>::Zero();

  // R S. Throws InputError for a non-positive or non-finite scale (which
  // would flip or collapse the surface) or a zero rotation axis.
  Mat3<T> linear_part() const {
    using std::isfinite;
    for (int k = 0; k < 3; ++k)
      if (!isfinite(scale(k)) || !(scale(k) > T(0))) throw InputError("transform: scale entries must be finite and positive");
    if (!isfinite(angle) || !offset.allFinite()) throw InputError("transform: angle and offset must be finite");
    if (!(axis.norm() > T(0)) || !axis.allFinite()) throw InputError("transform: rotation axis must be a finite non-zero vector");
    return spatial::so3_exp<T>(Vec3<T>(axis / axis.norm() * angle)) * scale.asDiagonal();
  }
};

template <class T>
class TransformedPatch final : public Patch<T> {
 public:
  TransformedPatch(std::unique_ptr<Patch<T>> inner, const SceneTransform<T>& transform)
      : TransformedPatch(std::move(inner), transform.linear_part(), transform.offset) {}
  // c'(s, t) = linear c(s, t) + offset; linear must be invertible with a
  // positive determinant (orientation kept: InputError otherwise). `name`
  // replaces "transformed <inner>" in describe() when given.
  TransformedPatch(std::unique_ptr<Patch<T>> inner, const Mat3<T>& linear, const Vec3<T>& offset,
                   std::string name = "")
      : inner_(std::move(inner)), linear_(linear), offset_(offset), name_(std::move(name)) {
    if (!linear.allFinite() || !offset.allFinite() || !(linear.determinant() > T(0)))
      throw InputError("transform: the linear part must be finite with a positive determinant, and the offset finite");
  }

  PatchJet<T> evaluate(const T& s, const T& t) const override {
    PatchJet<T> jet = inner_->evaluate(s, t);
    jet.d = (linear_ * jet.d).eval();
    jet.d.col(0) += offset_;
    return jet;
  }
  const Domain<T>& domain() const override { return inner_->domain(); }
  std::string describe() const override { return name_.empty() ? "transformed " + inner_->describe() : name_; }
  std::optional<Vec2<T>> parameters_of(const Vec3<T>& point) const override {
    return inner_->parameters_of(Vec3<T>(linear_.partialPivLu().solve(Vec3<T>(point - offset_))));
  }

 private:
  std::unique_ptr<Patch<T>> inner_;
  Mat3<T> linear_;
  Vec3<T> offset_;
  std::string name_;
};

}  // namespace contactref::surfaces
