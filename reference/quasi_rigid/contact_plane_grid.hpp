#pragma once
// A body's active samples mapped onto a regular grid in the contact plane,
// for the FFT half-space operator (fft_half_space.hpp, fft_contact.hpp) in
// place of the sampled response beside a rigid body (point_contact.hpp's
// ResponseOperator::kFftHalfSpace). The half-space model takes the plane as
// the body's surface and the samples' heights above it into the gap (the
// small-slope approximation of rough-surface contact).
//
// - The plane: through the area-weighted centroid of the penetrating samples
//   (gap < 0), normal to their area-weighted mean normal n (defined for a
//   single sample, and for a curved cap the cap's axis).
// - Near-planar: every penetrating sample's normal within kPlanarTilt of n,
//   else InputError. The bound is the one the exact response uses for its
//   tangent-plane near field (sampled_response.hpp: the near field is cut
//   where the normals turn by more than 0.5 rad); at it the displacement
//   along n is cos 0.5 = 88% of the displacement along the sample's normal.
// - The mapped samples: the active ones whose normals lie within kPlanarTilt
//   of n (farther ones, the side of a sole curving away, face no contact:
//   their tractions and displacements stay 0), projected onto the plane. The
//   grid's axes are the principal axes of the projections (the tightest
//   rectangle for an elongated contact), its cells of side `cell` cover
//   their bounding rectangle.
// - Sample values to cells: at each cell centre, the constant term of the
//   weighted least-squares quadratic in the plane's coordinates through the
//   mapped samples whose Shepard kernels reach it, weighted by those kernels
//   (Eq. 6's omega_k(d) = exp(-d^2 / (2 s_k^2)) for d < rho_k, with d in the
//   plane): exact for a quadratic field, where the Shepard average
//   (constant fit) would smooth a sphere's gap by about s^2 / (2 R) (0.4% of
//   a Hertz approach at a / h = 6). A vanishing ridge (1e-9 of the weights'
//   sum) on the linear and quadratic terms keeps the fit defined at the rim,
//   where the kernels reaching a cell lie on one side. Cells reached by
//   fewer than 3 kernels are outside (+infinity: no contact there).
// - Cell values to samples: fields interpolated bilinearly between the cell
//   centres at the samples' projections (the displacement). The pressure
//   (the normal traction of the samples there) likewise, but from the
//   loaded cells alone: 0 on a sample whose holding cell carries none, and
//   elsewhere the bilinear weights of the loaded centres about it,
//   normalised to sum to 1 (the holding cell's own weight is at least 1/4).
//   Inside the contact this is the bilinear interpolant, whose integral on a
//   regular grid is sum p h^2 (the trapezoid rule on the centres): the
//   samples' forces sum to the grid's where their areas tile the plane. At
//   its edge it holds the edge cells' pressures out to their sides, as the
//   holding cell's value alone would everywhere; that alone would weigh each
//   cell by the area of the samples that happen to fall in it (one or two to
//   a cell where the grid is as fine as the sampling: a load noisy by some
//   1 / sqrt(loaded cells)), and the plain bilinear interpolant would reach
//   half a cell past the contact (loading samples beside the active set's
//   rim on the foot: Section 6.1's growth for nothing).
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

namespace contactref::quasi_rigid {

// rad: the largest angle between a penetrating sample's normal and the
// contact plane's (above).
inline constexpr double kPlanarTilt = 0.5;

struct PlaneSamples {
  std::vector<Eigen::Vector3d> points, normals;  // m, unit (outward): the active samples, in one frame
  Eigen::VectorXd area;                           // m^2: their nodal areas
  Eigen::VectorXd spacing;                        // m: their Shepard spacings h_k
  double width = 0.5, support = 2.0;              // the kernels' s_k / h_k and rho_k / h_k
  Eigen::VectorXd gap;                            // m: their undeformed gaps (negative: penetrating)
};

class ContactPlaneGrid {
 public:
  // cell: the grid's spacing (m). where: the message's prefix. InputError:
  // cell not finite and > 0, sizes that differ, no penetrating sample, a
  // penetrating sample whose normal turns more than kPlanarTilt from the
  // plane's (naming it, its angle and the bound), a grid of more than
  // kMaxFftCells cells (naming its size and the spacing).
  ContactPlaneGrid(const PlaneSamples& samples, double cell, const std::string& where);

  int nx() const { return nx_; }
  int ny() const { return ny_; }
  double cell() const { return cell_; }
  // The centre of cell (i, j) in the samples' frame (m), in the plane.
  Eigen::Vector3d centre(int i, int j) const { return corner_ + cell_ * ((i + 0.5) * axis_x_ + (j + 0.5) * axis_y_); }

  // Per-sample values at the cell centres (the fit above), +infinity where
  // outside. InputError: another count than the samples'.
  Eigen::ArrayXXd to_cells(const Eigen::VectorXd& sample_values) const;
  // Per-cell values at the samples, bilinear between centres (0 at the
  // samples not mapped); the pressure from the loaded cells (above).
  Eigen::VectorXd bilinear_at_samples(const Eigen::ArrayXXd& cells) const;
  Eigen::VectorXd pressure_at_samples(const Eigen::ArrayXXd& pressure) const;

 private:
  int samples_ = 0, nx_ = 0, ny_ = 0;
  double cell_ = 0;
  Eigen::Vector3d corner_, axis_x_, axis_y_;  // the grid's corner and axes in the samples' frame
  std::vector<int> mapped_;              // the mapped samples' indices
  std::vector<Eigen::Vector2d> uv_;      // their projections, in cells from the grid's corner
  Eigen::SparseMatrix<double, Eigen::RowMajor> fit_;  // cells (x fastest) x samples: the fits' constant terms
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> inside_;
};

}  // namespace contactref::quasi_rigid
