#include "reference/surfaces/analytic_patches.hpp"

#include <algorithm>
#include <sstream>

namespace contactref::surfaces {
namespace {

template <class T>
void require(bool ok, const std::string& what) {
  if (!ok) throw InputError(what);
}

template <class T>
bool positive_finite(const T& x) {
  using std::isfinite;
  return isfinite(x) && x > T(0);
}

template <class T>
T pi() { return boost::math::constants::pi<T>(); }

}  // namespace

template <class T>
EllipsoidPatch<T>::EllipsoidPatch(const Vec3<T>& semi_axes)
    : axes_(semi_axes),
      domain_(Domain<T>::make_chart({T(0), pi<T>(), false}, {-pi<T>(), pi<T>(), true})) {
  require<T>(positive_finite(semi_axes.x()) && positive_finite(semi_axes.y()) && positive_finite(semi_axes.z()),
             "ellipsoid: semi_axes must be three finite positive lengths");
}

template <class T>
std::optional<Vec2<T>> EllipsoidPatch<T>::parameters_of(const Vec3<T>& point) const {
  using std::acos;
  using std::atan2;
  if (!point.allFinite()) return std::nullopt;
  const T x = std::clamp(T(point.x() / axes_.x()), T(-1), T(1));
  return Vec2<T>(acos(x), atan2(T(point.z() / axes_.z()), T(point.y() / axes_.y())));
}

template <class T>
TorusPatch<T>::TorusPatch(const T& major, const T& minor)
    : major_(major),
      minor_(minor),
      domain_(Domain<T>::make_chart({T(0), 2 * pi<T>(), true}, {T(0), 2 * pi<T>(), true})) {
  require<T>(positive_finite(minor) && positive_finite(major) && major > minor,
             "torus: need finite radii with major > minor > 0 (a self-intersecting torus is not a solid)");
}

template <class T>
CylinderPatch<T>::CylinderPatch(const T& radius)
    : radius_(radius), domain_(Domain<T>::make_chart({T(0), 2 * pi<T>(), true}, {})) {
  require<T>(positive_finite(radius), "cylinder: radius must be a finite positive length");
}

template <class T>
ParaboloidPatch<T>::ParaboloidPatch(const T& k1, const T& k2)
    : k1_(k1), k2_(k2), domain_(Domain<T>::make_chart({}, {})) {
  using std::isfinite;
  require<T>(isfinite(k1) && isfinite(k2), "paraboloid: curvatures must be finite");
}

#define CONTACTREF_INSTANTIATE(T) \
  template class PlanePatch<T>; \
  template class EllipsoidPatch<T>; \
  template class TorusPatch<T>; \
  template class CylinderPatch<T>; \
  template class ParaboloidPatch<T>;
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
