// Explicit instantiation of every spatial routine for double and for the
// 50-digit referee, so that both builds are compiled (and warning-checked)
// with the library, whatever the tests happen to use.
#include "reference/spatial/free_body.hpp"

namespace contactref::spatial {

#define CONTACTREF_INSTANTIATE_SPATIAL(T)                                                              \
  template Mat3<T> skew<T>(const Vec3<T>&);                                                            \
  template Vec3<T> unskew<T>(const Mat3<T>&);                                                          \
  template T sinc<T>(const T&);                                                                        \
  template T one_minus_cos_over_x2<T>(const T&);                                                       \
  template T x_minus_sin_over_x3<T>(const T&);                                                         \
  template Mat3<T> so3_exp<T>(const Vec3<T>&);                                                         \
  template Mat4<T> make_pose<T>(const Mat3<T>&, const Vec3<T>&);                                       \
  template Mat4<T> pose_inverse<T>(const Mat4<T>&);                                                    \
  template Mat4<T> hat<T>(const Vec6<T>&);                                                             \
  template Vec6<T> vee<T>(const Mat4<T>&);                                                             \
  template Mat4<T> se3_exp<T>(const Vec6<T>&);                                                         \
  template Vec6<T> body_twist<T>(const Mat4<T>&, const Mat4<T>&);                                      \
  template Mat6<T> adjoint<T>(const Mat4<T>&);                                                         \
  template Mat6<T> adjoint_inverse<T>(const Mat4<T>&);                                                 \
  template Mat6<T> wrench_adjoint<T>(const Mat4<T>&);                                                  \
  template Vec6<T> transform_twist<T>(const Mat4<T>&, const Vec6<T>&);                                 \
  template Vec6<T> transform_wrench<T>(const Mat4<T>&, const Vec6<T>&);                                \
  template Mat6<T> adjoint_derivative<T>(const Mat4<T>&, const Mat4<T>&);                              \
  template Mat6<T> spatial_cross<T>(const Vec6<T>&);                                                   \
  template Mat6<T> spatial_cross_dual<T>(const Vec6<T>&);                                              \
  template void check_rigid_inertia<T>(const T&, const Mat3<T>&, const std::string&);                  \
  template Mat6<T> spatial_inertia_at_com<T>(const T&, const Mat3<T>&);                                \
  template Mat6<T> transform_inertia<T>(const Mat4<T>&, const Mat6<T>&);                               \
  template Vec6<T> newton_euler_wrench<T>(const Mat6<T>&, const Vec6<T>&, const Vec6<T>&);             \
  template Vec6<T> body_acceleration<T>(const Eigen::LLT<Mat6<T>>&, const Mat6<T>&, const Vec6<T>&,    \
                                        const Vec6<T>&);                                               \
  template T kinetic_energy<T>(const Mat6<T>&, const Vec6<T>&);                                        \
  template Vec6<T> spatial_momentum<T>(const Mat4<T>&, const Mat6<T>&, const Vec6<T>&);                \
  template Mat3<T> rotation_from_quaternion<T>(const Vec4<T>&);                                        \
  template Mat4<T> pose_of<T>(const FreeBodyState<T>&);                                                \
  template Vec4<T> quaternion_derivative<T>(const Vec4<T>&, const Vec3<T>&);                           \
  template void check_free_body_state<T>(const FreeBodyState<T>&);                                     \
  template FreeBodyState<T> free_body_derivative<T>(const RigidBodyInertia<T>&, const FreeBodyState<T>&, \
                                                    const Vec6<T>&);                                   \
  template struct RigidBodyInertia<T>;

CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE_SPATIAL)

#undef CONTACTREF_INSTANTIATE_SPATIAL

}  // namespace contactref::spatial
