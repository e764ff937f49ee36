#pragma once
// Scalar types of the numerical layers. Every numerical routine is templated on
// the scalar T and instantiated for `double` and for `Real50`, the 50-digit
// referee (header-only Boost.Multiprecision, no expression templates, so
// `auto` and Eigen work with it as with double).
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/eigen.hpp>

namespace contactref {
using Real50 = boost::multiprecision::cpp_bin_float_50;
}  // namespace contactref

// Eigen's iterative eigen-solvers call numext::hypot, whose generic version
// needs NumTraits<T>::infinity(), which Boost.Multiprecision's Eigen traits do
// not provide; Boost's own hypot is exact to the last digit.
namespace Eigen::internal {
template <>
struct hypot_impl<contactref::Real50> {
  static contactref::Real50 run(const contactref::Real50& x, const contactref::Real50& y) {
    return boost::multiprecision::hypot(x, y);
  }
};
}  // namespace Eigen::internal

namespace contactref {

template <class T> using Vec3 = Eigen::Matrix<T, 3, 1>;
template <class T> using Vec4 = Eigen::Matrix<T, 4, 1>;
template <class T> using Vec6 = Eigen::Matrix<T, 6, 1>;
template <class T> using Mat3 = Eigen::Matrix<T, 3, 3>;
template <class T> using Mat4 = Eigen::Matrix<T, 4, 4>;
template <class T> using Mat6 = Eigen::Matrix<T, 6, 6>;

// The machine epsilon of T (2^-52 for double, about 1e-49 for Real50).
template <class T> T epsilon() { return Eigen::NumTraits<T>::epsilon(); }

}  // namespace contactref

// Explicit instantiation for every scalar type, written once per template:
//   #define CONTACTREF_INSTANTIATE(T) template class LoopSurface<T>;
//   CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
//   #undef CONTACTREF_INSTANTIATE
// A sanitized build (CONTACTREF_SANITIZED_BUILD, cmake/Sanitizers.cmake) is
// double only: code that needs the 50-digit referee is compiled only where
// CONTACTREF_HAS_REAL50 is 1.
#ifdef CONTACTREF_SANITIZED_BUILD
#define CONTACTREF_HAS_REAL50 0
#define CONTACTREF_FOR_EACH_SCALAR(MACRO) MACRO(double)
#else
#define CONTACTREF_HAS_REAL50 1
#define CONTACTREF_FOR_EACH_SCALAR(MACRO) \
  MACRO(double)                           \
  MACRO(::contactref::Real50)
#endif
