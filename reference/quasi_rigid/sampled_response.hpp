#pragma once
// The response matrix of Pauly et al. Eq. 8 on a point-sampled (curved)
// surface, and what it needs of the sampling, computed once per body (Section
// 3.2: "pre-computed for fixed sampling distributions").
//
// Shape functions (Eq. 6): sample k carries the truncated Gaussian
//   omega_k(d) = exp(-d^2 / (2 s_k^2)) for d < rho_k, s_k = width h_k,
//   rho_k = support h_k,
// where h_k, the local spacing, is the mean distance to the sample's
// `spacing_neighbours` nearest samples; Phi_j = omega_j / sum_k omega_k is a
// partition of unity wherever a kernel reaches.
//
// Integrals are taken in a sample's tangent plane (the other samples
// projected onto it), in polar coordinates about it, where the Jacobian r
// cancels the singularity of 1 / r:
//  - the nodal area a_j = integral of Phi_j, and its second moment
//    mu_j = integral of Phi_j |x - q_j|^2, about q_j;
//  - row i of R: the near field, every Phi_j centred within near h_i of q_i
//    (less where the surface curves within it: near_field_radius), each
//    whole, by that quadrature for all of them at once (the singular
//    self-term included); every other j but i within ResponseKernel::far_reach
//    of i by the midpoint rule with its second-order term,
//      R_ij = a_j f(r) + (mu_j / 4) lap f(r),  r = |q_i - q_j|,
//    Taylor's expansion of f about q_j under Phi_j taken as isotropic
//    (ResponseKernel::f_corrected; beyond far_reach the volume-preserving
//    kernel is below its stated bound: row_blocks.hpp).
//    The rule without that term, and with the near field's disk cutting
//    through kernels (the parts outside it at q_j), was first order at the
//    disk's edge: the volume-preserving kernel's displacement is a small
//    difference (Eq. 3: f integrates to zero), so those errors came back
//    magnified: 16% at the centre of a Hertz-like pressure at sigma = 5 h,
//    2% at sigma = 11 h (the foot's), now 0.3% and 0.01%
//    (sampled_response_test, against quadrature of the kernel itself).
// f is the kernel of response_matrix.hpp (Boussinesq, or our volume-preserving
// form); distances in the midpoint rule are 3-D (Eq. 8 integrates over S).
// A sample's near-field integrals depend only on the sampling and the kernel,
// so they are computed once per sample and kept (Section 3.2: "pre-computed
// for fixed sampling distributions"), for the last kernel shape (kind, sigma)
// and near radius asked; the compliance only scales them.
#include <Eigen/Core>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "reference/quasi_rigid/mls_surface.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"
#include "reference/quasi_rigid/row_blocks.hpp"

namespace contactref::quasi_rigid {

// The precision of SurfaceSampling::displacement's far-field kernel: double,
// or single where the displacements are an output that needs no more (the
// displacement field beyond the active samples: each far term's relative
// error below 1e-6, ResponseKernel::f_of_squared).
enum class FarPrecision { kDouble, kSingle };

struct SampledShepard {
  double width = 0.5;          // s_k / h_k
  double support = 2.0;        // rho_k / h_k
  int spacing_neighbours = 6;  // h_k: the mean distance to this many nearest samples
  int angles = 32;             // polar quadrature: trapezoid in the angle (more beyond six
                               // spacings, as many per length of the rim), and 8-point
                               // Gauss-Legendre per radial segment of about h_i
};

class SurfaceSampling {
 public:
  // InputError: width or support not finite and > 0, support below width,
  // spacing_neighbours below 1, fewer samples than spacing_neighbours + 1
  // (naming the samples), fewer than 8
  // angles, a sample that coincides with all its spacing neighbours.
  SurfaceSampling(const MlsSurface& surface, const SampledShepard& shepard = {});

  const MlsSurface& surface() const { return *surface_; }
  const SampledShepard& shepard() const { return shepard_; }
  const Eigen::VectorXd& spacing() const { return spacing_; }  // h_k (m)
  const Eigen::VectorXd& areas() const { return areas_; }      // a_k (m^2)
  const Eigen::VectorXd& second_moments() const { return second_moments_; }  // mu_k (m^4)
  // 1 where sample k lies on the rim of an open sampled surface (or a hole's):
  // the directions to its neighbours within kRimReach h_k, in its tangent
  // plane, leave a gap wider than 150 degrees, and none of their normals
  // turns from n_k by more than 0.5 rad (beside a sharp edge the next face
  // projects onto the edge's line: a gap, but the surface goes on). A
  // contact there depends on surface that is not sampled (point_contact.hpp
  // refuses it).
  static constexpr double kRimReach = 2.5;
  const std::vector<char>& rim() const { return rim_; }

  // R (m/Pa) restricted to the samples `nodes` (rows and columns in that
  // order): u_i = sum_j R_ij p_j for tractions p at the nodes, zero
  // elsewhere. near: the near field's radius over h_i (>= support).
  // InputError: an index out of range or repeated, near below support, the
  // kernel's (response_matrix.hpp).
  Eigen::MatrixXd response(const std::vector<int>& nodes, const ResponseKernel& kernel, double near = 4.0) const;
  // The same with the displacements at the samples `rows` (any samples) under
  // tractions at the samples `columns`: u_rows = R p_columns.
  Eigen::MatrixXd response(const std::vector<int>& rows, const std::vector<int>& columns, const ResponseKernel& kernel,
                           double near = 4.0) const;
  // Gives back a response matrix's storage once its caller is done with it
  // (its entries are not kept): the next response() with as many entries
  // fills it in place of a fresh allocation, whose pages the system would
  // fault in again (the foot's 60 MB R on the same active set, a warm solve:
  // a quarter of its time on a 2-core VM). One matrix is kept per sampling,
  // and let go by the next response() when it has another size.
  void recycle(Eigen::MatrixXd&& R) const;
  // u_rows = R p for tractions p at the samples `columns` (m), without forming
  // R: the same sums over the loaded columns only, the far field's kernel in
  // `precision` (summed in double). InputError: as response, and p of another
  // size than the columns.
  Eigen::VectorXd displacement(const std::vector<int>& rows, const std::vector<int>& columns,
                               const Eigen::VectorXd& traction, const ResponseKernel& kernel, double near = 4.0,
                               FarPrecision precision = FarPrecision::kDouble) const;

  // The radius about sample i within which the near field's kernels are
  // centred (m): near h_i, or less by a support rho_i than the distance to the
  // nearest sample whose normal turns from n_i by more than 0.5 rad; h_i at
  // least.
  double near_field_radius(int i, double near) const;

 private:
  // Integrates g(r) Phi_j and Phi_j in sample i's tangent plane, about it,
  // for every sample j centred within `radius` of it there, over the whole
  // of Phi_j: visit(j, integral of g Phi_j, integral of Phi_j).
  template <class G, class Visit>
  void integrate_about(int i, double radius, const G& g, const Visit& visit) const;

  // Whether sample k is on the rim (rim()); near and angles: scratch.
  bool on_rim(int k, std::vector<Neighbour>& near, std::vector<double>& angles) const;
  // Sample i's near field for a unit compliance: every sample j centred
  // within near_field_radius, with the integral of f Phi_j.
  struct NearEntry {
    int j = 0;
    double integral = 0;
  };
  using NearRow = std::vector<NearEntry>;
  std::shared_ptr<const NearRow> near_row(int i, const ResponseKernel& kernel, double near) const;
  // The rows' and the columns' positions by sample (-1: none).
  struct Positions {
    std::vector<Eigen::Index> row, column;
  };
  // InputError for a bad kernel, near radius, row or column (out of range,
  // or named twice).
  Positions checked_positions(const std::vector<int>& rows, const std::vector<int>& columns,
                              const ResponseKernel& kernel, double near) const;
  // The midpoint rule's f_corrected(r, far_moment(j)) from block b's rows to
  // sample j, into f (the block's size), zero at j's own row (its sorted
  // position `self`, or -1): times a_j, R's entries there where the near
  // field does not cover them (near_field). False, f untouched, where j is
  // beyond the kernel's far_reach of the whole block. T: the kernel's
  // precision (the squared distances are taken in double).
  template <class T>
  bool far_kernel(const RowBlocks& blocks, Eigen::Index b, Eigen::Index self, int j, const ResponseKernel& kernel,
                  Eigen::Ref<Eigen::Matrix<T, Eigen::Dynamic, 1>> f) const;
  // mu_j / (4 a_j) (m^2): the midpoint rule's second-order term per unit area.
  double far_moment(int j) const { return second_moments_(j) / (4 * areas_(j)); }
  // The rows' samples, one coordinate a column.
  Eigen::ArrayX3d row_points(const std::vector<int>& rows) const;
  // The near field of every row: visit(row, column, value), R's entry there
  // (the quadrature) where far_kernel's column gives the midpoint rule.
  template <class Visit>
  void near_field(const std::vector<int>& rows, const std::vector<int>& columns,
                  const std::vector<Eigen::Index>& column, const ResponseKernel& kernel, double near,
                  const Visit& visit) const;

  const MlsSurface* surface_;
  SampledShepard shepard_;
  Eigen::VectorXd spacing_, areas_, second_moments_;
  std::vector<char> rim_;
  double largest_support_ = 0;  // max rho_k (m)

  // The near rows computed so far, for cache_key_ (kind, sigma, near), by
  // sample (null: not yet).
  mutable std::mutex cache_mutex_;
  mutable std::tuple<int, double, double> cache_key_{-1, 0.0, 0.0};
  mutable std::vector<std::shared_ptr<const NearRow>> near_rows_;
  mutable Eigen::MatrixXd spare_response_;  // recycle()'s, under cache_mutex_
};

}  // namespace contactref::quasi_rigid
