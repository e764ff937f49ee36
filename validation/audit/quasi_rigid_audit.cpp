#include "validation/audit/quasi_rigid_audit.hpp"

#include "reference/quasi_rigid/block_pivoting.hpp"
#include "reference/quasi_rigid/lemke.hpp"
#include "validation/audit/precision_comparison.hpp"

namespace contactref::audit {
#if CONTACTREF_HAS_REAL50  // double against 50 digits: release build only (core/scalar.hpp)
namespace {

namespace qr = contactref::quasi_rigid;
using fixtures::Rng;

constexpr int kQuasiRigidSamples = 40;
constexpr int kOrder = 30;

// LCP(q, M) of order 30: M = A A^T / n + I / 10 + (C - C^T) / 20 with A, C
// uniform in [-1, 1], so x^T M x >= |x|^2 / 10 (a P-matrix: the solution is
// unique and both solvers must find it; cond(M) stays below about 50), and
// q uniform in [-1, 1] (about half the unknowns active). The solution z is
// compared: it is -M_FF^-1 q_F on the free set F, so it keeps about 16 -
// log10(cond) digits as long as both precisions find the same F, which a
// unique solution whose entries are not within round-off of zero ensures.
auto draw_lcp = [](Rng& rng) {
  Eigen::MatrixXd A(kOrder, kOrder), C(kOrder, kOrder);
  for (int i = 0; i < kOrder; ++i)
    for (int j = 0; j < kOrder; ++j) {
      A(i, j) = fixtures::uniform(rng, -1, 1);
      C(i, j) = fixtures::uniform(rng, -1, 1);
    }
  const Eigen::MatrixXd M =
      A * A.transpose() / kOrder + Eigen::MatrixXd::Identity(kOrder, kOrder) / 10 + (C - C.transpose()) / 20;
  Eigen::VectorXd q(kOrder);
  for (int i = 0; i < kOrder; ++i) q(i) = fixtures::uniform(rng, -1, 1);
  return std::make_tuple(M, q);
};

}  // namespace

std::vector<validation::AuditEntrySpec> quasi_rigid_audit_entries() {
  return {
      {"quasi_rigid.lcp_lemke", "z of LCP(q, M), order 30, P-matrix, by Lemke's method (lemke.hpp)",
       [] {
         return compare_double_with_50_digits(kQuasiRigidSamples, 601, draw_lcp, [](const auto& M, const auto& q) {
           using T = typename std::decay_t<decltype(q)>::Scalar;
           return qr::VectorX<T>(qr::solve_lcp_lemke<T>(M, q).z);
         });
       }},
      {"quasi_rigid.lcp_block_pivoting", "z of the same LCPs by block principal pivoting (block_pivoting.hpp, LU solves)",
       [] {
         return compare_double_with_50_digits(kQuasiRigidSamples, 601, draw_lcp, [](const auto& M, const auto& q) {
           using T = typename std::decay_t<decltype(q)>::Scalar;
           return qr::VectorX<T>(qr::solve_lcp_block_pivoting<T>(M, q).z);
         });
       }},
  };
}

#else

std::vector<validation::AuditEntrySpec> quasi_rigid_audit_entries() { return {}; }

#endif  // CONTACTREF_HAS_REAL50

}  // namespace contactref::audit
