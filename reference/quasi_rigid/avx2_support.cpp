// Compiled for any x86-64 processor (not with avx2_kernels.cpp's flags): the
// check runs before anything of AVX2 may.
#include "reference/quasi_rigid/avx2_kernels.hpp"

namespace contactref::quasi_rigid {

bool avx2_kernels_available() {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return available;
#else
  return false;
#endif
}

}  // namespace contactref::quasi_rigid
