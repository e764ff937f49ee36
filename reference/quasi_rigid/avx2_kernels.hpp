#pragma once
// The quasi-rigid hot loops in AVX2 and FMA, for processors that have them,
// chosen at run time: the release build is portable, and its Eigen kernels
// are SSE2's, half as wide. avx2_kernels.cpp is compiled with -mavx2 -mfma
// on its own, so nothing in it may come from a header's inline function (its
// AVX2 copy could stand in for the portable one elsewhere, where the
// processor may lack AVX2): the interfaces are plain arrays, and the callers
// (dense_product.cpp, sampled_response.cpp) check avx2_kernels_available()
// first.
namespace contactref::quasi_rigid {

// Whether the kernels below run: the processor has AVX2 and FMA and no
// PortableKernels lives (avx2_support.cpp, compiled for any x86-64).
bool avx2_kernels_available();

// While one lives, the callers take their portable loops instead: the
// results of a processor without AVX2, to the bit (for the tests of those
// loops on a processor with AVX2, and for results to compare across
// machines). Not for changing while a computation runs on another thread.
class PortableKernels {
 public:
  PortableKernels();
  ~PortableKernels();
  PortableKernels(const PortableKernels&) = delete;
  PortableKernels& operator=(const PortableKernels&) = delete;
};

// y = sum_k x_k a_k over `count` columns a_k of `rows` entries (any columns
// of a matrix, in any order): four columns at a time, each row's sum
// fma(a3, x3, fma(a2, x2, fma(a1, x1, fma(a0, x0, y)))), then the columns
// past a multiple of four one by one. y must not overlap a column or x.
void product_avx2(const double* const* columns, long rows, long count, const double* x, double* y);

// ResponseKernel::f_corrected's constants (ResponseKernel::far_terms):
// f_corrected(r, m) = c exp(e r^2) (1 / r - beta + m (1 / r^3
// + 2 beta / sigma^2 + (r - beta r^2) / sigma^4)) for the volume-preserving
// kernel, c / r (1 + m / r^2) for Boussinesq's. The single-precision kernel
// rounds them to float, and takes sigma^4 and 2 beta / sigma^2 in float, as
// the portable one does.
struct FarKernelTerms {
  bool boussinesq = false;
  double c = 0, beta = 0, exponent = 0, sigma2 = 0;
};

// The columns that reach a block of rows: each one's point, second-moment
// term m_j, load p_j a_j, and the block's row at its own point (-1: none;
// its term there is 0).
struct FarColumns {
  const double *x, *y, *z;
  const float* moment;
  const double* load;
  const int* own;
  long count;
};

// SurfaceSampling::displacement's far sums with FarPrecision::kSingle:
// sum_r += sum_c load_c f_corrected(|p_r - q_c|, m_c) over a block's `rows`
// points (coordinates x, y, z), each squared distance taken in double, f in
// single precision (the exponential SLEEF's, to 1 ulp; 1 / r the reciprocal
// square root's estimate with one Newton step, as Eigen's), each row's terms
// added in the columns' order, in double.
void add_far_field_avx2(const double* x, const double* y, const double* z, long rows, const FarColumns& columns,
                        const FarKernelTerms& kernel, double* sum);

// SurfaceSampling::response's far entries of one column in double:
// f_r = area f_corrected(|p_r - q|, m) for a block's `rows` points, 0 at
// the row `own` (-1: none). The squared distances and 1 / r (a square root
// and a division) are the portable loop's to the bit; the exponential is
// SLEEF's, to 1 ulp.
void far_column_avx2(const double* x, const double* y, const double* z, long rows, const double* q, double moment,
                     double area, long own, const FarKernelTerms& kernel, double* f);

}  // namespace contactref::quasi_rigid
