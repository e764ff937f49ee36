#pragma once
// An atlas of two overlapping charts for an ellipsoid (or sphere), so that a
// contact can reach every point of it (issue 12 item 7): a single chart
// (EllipsoidPatch: s the angle from the +x pole, t about the x axis) is
// singular at its two poles, where c_t = 0 and Kry & Pai's frame (Eq. 5)
// does not exist, and a rolling ball reaches a pole.
//   chart 0: EllipsoidPatch(a, b, c), poles on +-x;
//   chart 1: the ellipsoid with the same semi-axes, parameterised with its
//            poles on +-z: EllipsoidPatch(c, a, b) mapped by the cyclic
//            rotation P = [e_y e_z e_x] (P (x', y', z') = (y', z', x')),
//            so chart 1's pole axis x' is the body's z axis.
// Each chart is used within the band s in [margin, pi - margin], margin =
// pi/6: within 60 degrees of its equator (sin s >= 1/2, so the chart is
// well conditioned). Every point of the ellipsoid lies in one of the bands
// with room to spare: a point outside chart 0's band has |x/a| > cos(pi/6),
// so its angle from the z poles satisfies |z/c| <= sin(pi/6) and it lies
// well inside chart 1's band, and the other way round (PatchComplex's atlas).
#include "reference/surfaces/patch_complex.hpp"
#include "reference/surfaces/transformed_patch.hpp"

namespace contactref::surfaces {

// The atlas of the ellipsoid with these semi-axes (m, along body x, y, z),
// mapped by x -> linear x + offset (a scene transform; identity by default;
// InputError as TransformedPatch).
template <class T>
PatchComplex<T> ellipsoid_atlas(const Vec3<T>& semi_axes, const Mat3<T>& linear = Mat3<T>::Identity(),
                                const Vec3<T>& offset = Vec3<T>::Zero());

}  // namespace contactref::surfaces
