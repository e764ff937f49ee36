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
//  - the nodal area a_j = integral of Phi_j about q_j;
//  - row i of R: the near field, the disk of radius near h_i about q_i (less
//    where the surface curves within it: near_field_radius), by
//    that quadrature for every Phi_j at once (the singular self-term
//    included); beyond it the midpoint rule, f(|q_i - q_j|) (a_j - m_ij), with
//    m_ij the part of Phi_j's mass inside the disk (so nothing counts twice),
//    for every j but i within ResponseKernel::far_reach of i (beyond, the
//    volume-preserving kernel is below its stated bound: row_blocks.hpp).
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
#include <unordered_map>
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
  int angles = 32;             // polar quadrature: trapezoid in the angle, and 8-point
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
  // u_rows = R p for tractions p at the samples `columns` (m), without forming
  // R: the same sums over the loaded columns only, the far field's kernel in
  // `precision` (summed in double). InputError: as response, and p of another
  // size than the columns.
  Eigen::VectorXd displacement(const std::vector<int>& rows, const std::vector<int>& columns,
                               const Eigen::VectorXd& traction, const ResponseKernel& kernel, double near = 4.0,
                               FarPrecision precision = FarPrecision::kDouble) const;

  // The near field's radius about sample i (m): near h_i, cut at the
  // nearest sample whose normal turns from n_i by more than 0.5 rad, and not
  // below the kernels' support rho_i.
  double near_field_radius(int i, double near) const;

 private:
  // Integrates g(r) Phi_j and Phi_j over the disk of radius `radius` about
  // sample i in its tangent plane, for every sample j whose kernel reaches it:
  // visit(j, integral of g Phi_j, integral of Phi_j).
  template <class G, class Visit>
  void integrate_about(int i, double radius, const G& g, const Visit& visit) const;

  // Sample i's near field for a unit compliance: every sample j whose kernel
  // reaches the disk, with the integral of f Phi_j and of Phi_j over it.
  struct NearEntry {
    int j = 0;
    double integral = 0, mass = 0;
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
  // The midpoint rule's f(r) / r from block b's rows to sample j, into f
  // (the block's size), zero at j's own row (its sorted position `self`, or
  // -1): times a_j, R's entries there where the near field does not cover
  // them (near_field). False, f untouched, where j is beyond the kernel's
  // far_reach of the whole block. T: the kernel's precision (the squared
  // distances are taken in double).
  template <class T>
  bool far_kernel(const RowBlocks& blocks, Eigen::Index b, Eigen::Index self, int j, const ResponseKernel& kernel,
                  Eigen::Ref<Eigen::Matrix<T, Eigen::Dynamic, 1>> f) const;
  // The rows' samples, one coordinate a column.
  Eigen::ArrayX3d row_points(const std::vector<int>& rows) const;
  // The near field of every row that a column's kernel reaches:
  // visit(row, column, near, far), R's entry there being
  // near + far (the quadrature, and the midpoint rule's f(r) / r (a_j - m_ij))
  // where far_kernel's column gives f(r) / r a_j.
  template <class Visit>
  void near_field(const std::vector<int>& rows, const std::vector<int>& columns,
                  const std::vector<Eigen::Index>& column, const ResponseKernel& kernel, double near,
                  const Visit& visit) const;

  const MlsSurface* surface_;
  SampledShepard shepard_;
  Eigen::VectorXd spacing_, areas_;
  double largest_support_ = 0;  // max rho_k (m)

  // The near rows computed so far, for cache_key_ (kind, sigma, near).
  mutable std::mutex cache_mutex_;
  mutable std::tuple<int, double, double> cache_key_{-1, 0.0, 0.0};
  mutable std::unordered_map<int, std::shared_ptr<const NearRow>> near_rows_;
};

}  // namespace contactref::quasi_rigid
