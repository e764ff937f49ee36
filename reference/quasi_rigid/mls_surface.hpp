#pragma once
// The MLS surface of a point-sampled surface (Pauly et al. Section 2.2) in its
// linear form (their [PGK02]), and the signed distance to it (Section 4.1).
//
// Projection Psi(x): at the current point y (first y = x), take the k samples
// nearest to y. The radius h is the distance to the k-th of them, so it adapts
// to the local spacing (and is a continuous function of y), and the weights
//   w_i = (1 - |p_i - y|^2 / h^2)^4
// vanish at h, so that the fit changes continuously with y. The weighted
// least-squares plane through the weighted centroid q has the normal n of the
// smallest eigenvalue of the weighted covariance, oriented by the samples'
// weighted mean normal. Then y <- y - ((y - q) . n) n, until a step moves y
// less than `tolerance` h. With degree 1 (the paper's linear approximation)
// Psi(x) is that stationary point y. It lies inside a convex surface by about
// the neighbourhood's mean square radius over twice the curvature radius
// (2.4e-3 for spacing 0.05 on the unit sphere): of the order of the gaps that
// decide a contact. Degree 2 (the default) adds Section 2.2's second step:
// the weighted least-squares quadratic g(u, v) over the plane at y, and
//   Psi(x) = y + g(0, 0) n,  normal along n - g_u t_u - g_v t_v,
// which removes that bias (the error is then of third order in the spacing).
//
// The signed distance is d(x) = (x - Psi(x)) . n(Psi(x)), negative inside.
// Section 4.1's conservative shortcut replaces Psi(x) by the nearest sample
// r and its normal: d_r(x) = (x - r) . n_r.
#include <Eigen/Core>

#include "reference/quasi_rigid/point_index.hpp"
#include "reference/quasi_rigid/point_samples.hpp"

namespace contactref::quasi_rigid {

struct MlsOptions {
  int neighbours = 20;       // k (the k-th has weight 0)
  int degree = 2;            // of g(u, v): 1 (plane only) or 2
  int max_iterations = 64;
  double tolerance = 1e-10;  // of the radius h
};

struct MlsProjection {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // Psi(x) (m)
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // unit, outward
  double radius = 0;                                 // h at Psi(x) (m)
  int iterations = 0;  // of the plane
};

struct SampleDistance {
  int sample = -1;      // the nearest sample
  double distance = 0;  // (x - r) . n_r (m), negative inside
  bool off_surface = false;  // past the sampled surface: |x - r| outside (QuasiRigidBody::nearest_sample_distance)
};

class MlsSurface {
 public:
  // InputError: the samples' (check_samples), fewer than 3 samples,
  // neighbours below 3 (below 7 for degree 2), a degree other than 1 or 2,
  // max_iterations below 1, tolerance not in (0, 1).
  explicit MlsSurface(SurfaceSamples samples, const MlsOptions& options = {});

  const SurfaceSamples& samples() const { return samples_; }
  const PointIndex& index() const { return index_; }
  const MlsOptions& options() const { return options_; }

  // ComputationError naming x: no convergence within max_iterations, or the
  // samples about it have opposing normals (a sheet thinner than the
  // neighbourhood: inside and outside are undefined there). InputError: x not
  // finite. Where the neighbours fix no quadratic (collinear samples, a
  // degenerate cloud), g is the plane (degree 1).
  MlsProjection project(const Eigen::Vector3d& x) const;
  double signed_distance(const Eigen::Vector3d& x) const;
  SampleDistance nearest_sample_distance(const Eigen::Vector3d& x) const;

 private:
  MlsProjection with_quadratic(const MlsProjection& on_plane, const std::vector<Neighbour>& near,
                               const std::vector<double>& weights) const;

  SurfaceSamples samples_;
  MlsOptions options_;
  PointIndex index_;
};

}  // namespace contactref::quasi_rigid
