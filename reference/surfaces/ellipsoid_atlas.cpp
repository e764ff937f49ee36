#include "reference/surfaces/ellipsoid_atlas.hpp"

#include <boost/math/constants/constants.hpp>

#include "reference/surfaces/analytic_patches.hpp"

namespace contactref::surfaces {

template <class T>
PatchComplex<T> ellipsoid_atlas(const Vec3<T>& semi_axes, const Mat3<T>& linear, const Vec3<T>& offset) {
  Mat3<T> P;  // the cyclic rotation: P e_x = e_z, P e_y = e_x, P e_z = e_y
  P << T(0), T(1), T(0), T(0), T(0), T(1), T(1), T(0), T(0);
  PatchComplex<T> atlas;
  atlas.patches.push_back(std::make_unique<TransformedPatch<T>>(std::make_unique<EllipsoidPatch<T>>(semi_axes), linear,
                                                                offset, "ellipsoid chart 0 (poles on body x)"));
  const Vec3<T> permuted(semi_axes.z(), semi_axes.x(), semi_axes.y());
  atlas.patches.push_back(
      std::make_unique<TransformedPatch<T>>(std::make_unique<EllipsoidPatch<T>>(permuted), Mat3<T>(linear * P), offset,
                                            "ellipsoid chart 1 (poles on body z)"));
  atlas.links.resize(2);  // charts have no edges
  atlas.chart_margin = boost::math::constants::pi<T>() / 6;
  return atlas;
}

#define CONTACTREF_INSTANTIATE(T) \
  template PatchComplex<T> ellipsoid_atlas<T>(const Vec3<T>&, const Mat3<T>&, const Vec3<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
