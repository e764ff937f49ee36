// Compiled for any x86-64 processor (not with avx2_kernels.cpp's flags): the
// check runs before anything of AVX2 may.
#include "reference/quasi_rigid/avx2_kernels.hpp"

#include <atomic>

namespace contactref::quasi_rigid {
namespace {

std::atomic<int> portable_scopes{0};  // PortableKernels alive

bool processor_has_avx2_fma() {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
  static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return available;
#else
  return false;
#endif
}

}  // namespace

bool avx2_kernels_available() { return portable_scopes.load(std::memory_order_relaxed) == 0 && processor_has_avx2_fma(); }

PortableKernels::PortableKernels() { portable_scopes.fetch_add(1, std::memory_order_relaxed); }
PortableKernels::~PortableKernels() { portable_scopes.fetch_sub(1, std::memory_order_relaxed); }

}  // namespace contactref::quasi_rigid
