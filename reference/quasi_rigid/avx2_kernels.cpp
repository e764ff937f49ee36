// Compiled with -mavx2 -mfma (reference/quasi_rigid/CMakeLists.txt) on x86-64;
// see avx2_kernels.hpp for why nothing here comes from a C++ header.
#include "reference/quasi_rigid/avx2_kernels.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#include <sleef.h>

namespace contactref::quasi_rigid {
namespace {

// Sixteen rows of y += a0 x0 + a1 x1 + a2 x2 + a3 x3, in four independent
// accumulators (the multiply-adds' latency).
inline void four_columns_16(const double* a0, const double* a1, const double* a2, const double* a3, __m256d x0,
                            __m256d x1, __m256d x2, __m256d x3, double* y) {
  __m256d y0 = _mm256_loadu_pd(y), y1 = _mm256_loadu_pd(y + 4), y2 = _mm256_loadu_pd(y + 8),
          y3 = _mm256_loadu_pd(y + 12);
  const double* const columns[4] = {a0, a1, a2, a3};
  const __m256d xs[4] = {x0, x1, x2, x3};
  for (int k = 0; k < 4; ++k) {
    y0 = _mm256_fmadd_pd(_mm256_loadu_pd(columns[k]), xs[k], y0);
    y1 = _mm256_fmadd_pd(_mm256_loadu_pd(columns[k] + 4), xs[k], y1);
    y2 = _mm256_fmadd_pd(_mm256_loadu_pd(columns[k] + 8), xs[k], y2);
    y3 = _mm256_fmadd_pd(_mm256_loadu_pd(columns[k] + 12), xs[k], y3);
  }
  _mm256_storeu_pd(y, y0);
  _mm256_storeu_pd(y + 4, y1);
  _mm256_storeu_pd(y + 8, y2);
  _mm256_storeu_pd(y + 12, y3);
}

// 1 / sqrt(r2): the estimate and one Newton step, e (3/2 - (r2 / 2) e^2).
inline __m256 reciprocal_root(__m256 r2) {
  const __m256 e = _mm256_rsqrt_ps(r2);
  const __m256 half_r2 = _mm256_mul_ps(_mm256_set1_ps(0.5f), r2);
  return _mm256_mul_ps(e, _mm256_fnmadd_ps(half_r2, _mm256_mul_ps(e, e), _mm256_set1_ps(1.5f)));
}

// FarKernelTerms rounded to float, sigma^4 and 2 beta / sigma^2 taken in
// float (as kernel_of_squared<float> in response_matrix.cpp).
struct SingleTerms {
  __m256 c, beta, exponent, two_beta_sigma2, sigma4;
  bool boussinesq;
};

SingleTerms single_terms(const FarKernelTerms& kernel) {
  const float beta = static_cast<float>(kernel.beta), sigma2 = static_cast<float>(kernel.sigma2);
  return {_mm256_set1_ps(static_cast<float>(kernel.c)), _mm256_set1_ps(beta),
          _mm256_set1_ps(static_cast<float>(kernel.exponent)),
          _mm256_set1_ps(2 * beta / sigma2), _mm256_set1_ps(sigma2 * sigma2), kernel.boussinesq};
}

// f_corrected of eight squared distances in single precision, second-moment
// term m.
inline __m256 kernel_of_squared(__m256 r2, __m256 m, const SingleTerms& kernel) {
  const __m256 u = reciprocal_root(r2);
  if (kernel.boussinesq) {
    return _mm256_mul_ps(_mm256_mul_ps(kernel.c, u), _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_div_ps(m, r2)));
  }
  const __m256 decay = Sleef_expf8_u10avx2(_mm256_mul_ps(kernel.exponent, r2));
  // u^3 + 2 beta / sigma^2 + (r2 u - beta r2) / sigma^4
  const __m256 curvature = _mm256_add_ps(
      _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(u, u), u), kernel.two_beta_sigma2),
      _mm256_div_ps(_mm256_sub_ps(_mm256_mul_ps(r2, u), _mm256_mul_ps(kernel.beta, r2)), kernel.sigma4));
  return _mm256_mul_ps(_mm256_mul_ps(kernel.c, decay), _mm256_fmadd_ps(m, curvature, _mm256_sub_ps(u, kernel.beta)));
}

// Eight rows' squared distances from (qx, qy, qz), in double, as floats.
inline __m256 squared_distances(const double* x, const double* y, const double* z, __m256d qx, __m256d qy,
                                __m256d qz) {
  __m128 half[2];
  for (int h = 0; h < 2; ++h) {
    const __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(x + 4 * h), qx);
    const __m256d dy = _mm256_sub_pd(_mm256_loadu_pd(y + 4 * h), qy);
    const __m256d dz = _mm256_sub_pd(_mm256_loadu_pd(z + 4 * h), qz);
    half[h] = _mm256_cvtpd_ps(_mm256_fmadd_pd(dz, dz, _mm256_fmadd_pd(dy, dy, _mm256_mul_pd(dx, dx))));
  }
  return _mm256_insertf128_ps(_mm256_castps128_ps256(half[0]), half[1], 1);
}

// Eight rows (at x, y, z, the block's rows first .. first + 7) from every
// column, into sum (lanes past `valid` are computed and dropped).
void far_field_8(const double* x, const double* y, const double* z, long first, long valid, const FarColumns& columns,
                 const SingleTerms& kernel, double* sum) {
  const __m256i row =
      _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256d low = _mm256_setzero_pd(), high = _mm256_setzero_pd();
  for (long c = 0; c < columns.count; ++c) {
    const __m256 r2 = squared_distances(x, y, z, _mm256_set1_pd(columns.x[c]), _mm256_set1_pd(columns.y[c]),
                                        _mm256_set1_pd(columns.z[c]));
    __m256 f = kernel_of_squared(r2, _mm256_set1_ps(columns.moment[c]), kernel);
    const __m256 own = _mm256_castsi256_ps(_mm256_cmpeq_epi32(row, _mm256_set1_epi32(columns.own[c])));
    f = _mm256_andnot_ps(own, f);  // the term at the column's own point is 0
    const __m256d load = _mm256_set1_pd(columns.load[c]);
    low = _mm256_fmadd_pd(load, _mm256_cvtps_pd(_mm256_castps256_ps128(f)), low);
    high = _mm256_fmadd_pd(load, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)), high);
  }
  double lanes[8];
  _mm256_storeu_pd(lanes, low);
  _mm256_storeu_pd(lanes + 4, high);
  for (long k = 0; k < valid; ++k) sum[k] += lanes[k];
}

}  // namespace

void product_avx2(const double* const* columns, long rows, long count, const double* x, double* y) {
  for (long i = 0; i < rows; ++i) y[i] = 0;
  long j = 0;
  for (; j + 4 <= count; j += 4) {
    const double *a0 = columns[j], *a1 = columns[j + 1], *a2 = columns[j + 2], *a3 = columns[j + 3];
    const __m256d x0 = _mm256_set1_pd(x[j]), x1 = _mm256_set1_pd(x[j + 1]), x2 = _mm256_set1_pd(x[j + 2]),
                  x3 = _mm256_set1_pd(x[j + 3]);
    long i = 0;
    for (; i + 16 <= rows; i += 16) four_columns_16(a0 + i, a1 + i, a2 + i, a3 + i, x0, x1, x2, x3, y + i);
    for (; i + 4 <= rows; i += 4) {
      __m256d y0 = _mm256_loadu_pd(y + i);
      y0 = _mm256_fmadd_pd(_mm256_loadu_pd(a0 + i), x0, y0);
      y0 = _mm256_fmadd_pd(_mm256_loadu_pd(a1 + i), x1, y0);
      y0 = _mm256_fmadd_pd(_mm256_loadu_pd(a2 + i), x2, y0);
      y0 = _mm256_fmadd_pd(_mm256_loadu_pd(a3 + i), x3, y0);
      _mm256_storeu_pd(y + i, y0);
    }
    for (; i < rows; ++i) {
      y[i] = __builtin_fma(a3[i], x[j + 3],
                           __builtin_fma(a2[i], x[j + 2], __builtin_fma(a1[i], x[j + 1], __builtin_fma(a0[i], x[j], y[i]))));
    }
  }
  for (; j < count; ++j) {
    const double* a = columns[j];
    for (long i = 0; i < rows; ++i) y[i] = __builtin_fma(a[i], x[j], y[i]);
  }
}

void add_far_field_avx2(const double* x, const double* y, const double* z, long rows, const FarColumns& columns,
                        const FarKernelTerms& terms, double* sum) {
  const SingleTerms kernel = single_terms(terms);
  long first = 0;
  for (; first + 8 <= rows; first += 8) far_field_8(x + first, y + first, z + first, first, 8, columns, kernel, sum + first);
  if (first == rows) return;
  // The last rows padded with copies of the block's first (real distances:
  // no infinity or NaN in the dropped lanes).
  double px[8], py[8], pz[8];
  for (long k = 0; k < 8; ++k) {
    const long from = first + k < rows ? first + k : 0;
    px[k] = x[from], py[k] = y[from], pz[k] = z[from];
  }
  far_field_8(px, py, pz, first, rows - first, columns, kernel, sum + first);
}

void far_column_avx2(const double* x, const double* y, const double* z, long rows, const double* q, double moment,
                     double area, long own, const FarKernelTerms& kernel, double* f) {
  const __m256d qx = _mm256_set1_pd(q[0]), qy = _mm256_set1_pd(q[1]), qz = _mm256_set1_pd(q[2]);
  const __m256d c = _mm256_set1_pd(kernel.c), beta = _mm256_set1_pd(kernel.beta), exponent = _mm256_set1_pd(kernel.exponent),
                m = _mm256_set1_pd(moment), a = _mm256_set1_pd(area), one = _mm256_set1_pd(1.0);
  const __m256d two_beta_sigma2 = _mm256_set1_pd(2 * kernel.beta / kernel.sigma2),
                sigma4 = _mm256_set1_pd(kernel.sigma2 * kernel.sigma2);
  // Four rows at a time; the last ones padded with the first row's point.
  for (long first = 0; first < rows; first += 4) {
    double px[4], py[4], pz[4];
    for (long k = 0; k < 4; ++k) {
      const long from = first + k < rows ? first + k : 0;
      px[k] = x[from], py[k] = y[from], pz[k] = z[from];
    }
    // ((x - qx)^2 + (y - qy)^2) + (z - qz)^2, unfused, as the portable loop.
    const __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(px), qx), dy = _mm256_sub_pd(_mm256_loadu_pd(py), qy),
                  dz = _mm256_sub_pd(_mm256_loadu_pd(pz), qz);
    const __m256d r2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
    const __m256d u = _mm256_div_pd(one, _mm256_sqrt_pd(r2));
    __m256d value;
    if (kernel.boussinesq) {
      value = moment == 0 ? _mm256_mul_pd(c, u)
                          : _mm256_mul_pd(_mm256_mul_pd(c, u), _mm256_add_pd(one, _mm256_div_pd(m, r2)));
    } else {
      const __m256d decay = Sleef_expd4_u10avx2(_mm256_mul_pd(exponent, r2));
      if (moment == 0) {
        value = _mm256_mul_pd(_mm256_mul_pd(c, _mm256_sub_pd(u, beta)), decay);
      } else {
        const __m256d curvature = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(u, u), u), two_beta_sigma2),
            _mm256_div_pd(_mm256_sub_pd(_mm256_mul_pd(r2, u), _mm256_mul_pd(beta, r2)), sigma4));
        value = _mm256_mul_pd(_mm256_mul_pd(c, decay), _mm256_add_pd(_mm256_sub_pd(u, beta), _mm256_mul_pd(m, curvature)));
      }
    }
    double lanes[4];
    _mm256_storeu_pd(lanes, _mm256_mul_pd(value, a));
    for (long k = 0; k < 4 && first + k < rows; ++k) f[first + k] = first + k == own ? 0.0 : lanes[k];
  }
}

}  // namespace contactref::quasi_rigid

#else  // no AVX2 here: never called (avx2_kernels_available() is false)

namespace contactref::quasi_rigid {
void product_avx2(const double* const*, long, long, const double*, double*) { __builtin_trap(); }
void add_far_field_avx2(const double*, const double*, const double*, long, const FarColumns&, const FarKernelTerms&,
                        double*) {
  __builtin_trap();
}
void far_column_avx2(const double*, const double*, const double*, long, const double*, double, double, long,
                     const FarKernelTerms&, double*) {
  __builtin_trap();
}
}  // namespace contactref::quasi_rigid

#endif
