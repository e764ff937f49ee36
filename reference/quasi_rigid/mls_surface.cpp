#include "reference/quasi_rigid/mls_surface.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

namespace {

std::string point_text(const Eigen::Vector3d& x) {
  std::ostringstream text;
  text.precision(17);
  text << '(' << x.x() << ", " << x.y() << ", " << x.z() << ')';
  return text.str();
}

// Section 2.2's quadratic g(u, v) = a + b u + c v + d u^2 + e u v + f v^2 over
// the plane at y: its coefficients by a rank-revealing QR of the weighted
// design matrix, false where the neighbours fix no quadratic. MaxRows bounds
// the neighbours at compile time (Eigen::Dynamic: none), so that up to that
// many the matrices and the QR's workspace stay on the stack: no allocation
// per projection.
template <int MaxRows>
bool quadratic_fit(const std::vector<Eigen::Vector3d>& points, const MlsProjection& on_plane, const Eigen::Vector3d& t_u,
                   const Eigen::Vector3d& t_v, const std::vector<Neighbour>& near, const std::vector<double>& weights,
                   Eigen::Matrix<double, 6, 1>& g) {
  const Eigen::Vector3d& n = on_plane.normal;
  const auto k = static_cast<Eigen::Index>(near.size());
  using Design = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::ColMajor, MaxRows, 6>;
  Design design(k, 6);
  Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, MaxRows, 1> height(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    const auto s = static_cast<std::size_t>(i);
    // Scaled by h so that the columns are of one size.
    const Eigen::Vector3d d = (points[static_cast<std::size_t>(near[s].index)] - on_plane.point) / on_plane.radius;
    const double u = d.dot(t_u), v = d.dot(t_v), root_w = std::sqrt(weights[s]);
    design.row(i) << root_w, root_w * u, root_w * v, root_w * u * u, root_w * u * v, root_w * v * v;
    height(i) = root_w * d.dot(n);
  }
  Eigen::ColPivHouseholderQR<Design> qr(design);
  qr.setThreshold(1e-8);
  if (qr.rank() < 6) return false;
  g = qr.solve(height);
  return true;
}

constexpr int kStackNeighbours = 32;  // the default k is 20

}  // namespace

// Section 2.2's second step: the weighted least-squares quadratic
// w = g(u, v) over the plane at y.
MlsProjection MlsSurface::with_quadratic(const MlsProjection& on_plane, const std::vector<Neighbour>& near,
                                         const std::vector<double>& weights) const {
  const Eigen::Vector3d& n = on_plane.normal;
  const Eigen::Vector3d t_u = n.unitOrthogonal();
  const Eigen::Vector3d t_v = n.cross(t_u);
  Eigen::Matrix<double, 6, 1> g;
  const bool determined = near.size() <= static_cast<std::size_t>(kStackNeighbours)
                              ? quadratic_fit<kStackNeighbours>(samples_.points, on_plane, t_u, t_v, near, weights, g)
                              : quadratic_fit<Eigen::Dynamic>(samples_.points, on_plane, t_u, t_v, near, weights, g);
  if (!determined) return on_plane;
  MlsProjection projection = on_plane;
  projection.point += g(0) * on_plane.radius * n;
  projection.normal = (n - g(1) * t_u - g(2) * t_v).normalized();
  return projection;
}

MlsSurface::MlsSurface(SurfaceSamples samples, const MlsOptions& options)
    : samples_(std::move(samples)), options_(options), index_((check_samples(samples_), samples_.points)) {
  if (samples_.points.size() < 3) throw InputError(samples_.name + ": an MLS surface needs at least 3 samples");
  if (options_.degree != 1 && options_.degree != 2) throw InputError("MLS degree must be 1 or 2");
  if (options_.neighbours < (options_.degree == 2 ? 7 : 3)) {
    throw InputError(options_.degree == 2 ? "MLS neighbours must be >= 7 for degree 2" : "MLS neighbours must be >= 3");
  }
  if (options_.max_iterations < 1) throw InputError("MLS max_iterations must be >= 1");
  if (!(options_.tolerance > 0 && options_.tolerance < 1)) throw InputError("MLS tolerance must be in (0, 1)");
}

MlsProjection MlsSurface::project(const Eigen::Vector3d& x) const {
  if (!x.allFinite()) throw InputError("MLS projection of a non-finite point");
  MovingNearest neighbours(index_, options_.neighbours);
  std::vector<double> weights;
  Eigen::Vector3d y = x;
  for (int iteration = 1; iteration <= options_.max_iterations; ++iteration) {
    const std::vector<Neighbour>& near = neighbours.at(y);
    const double h_sq = near.back().distance_sq;
    double weight_sum = 0;
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    Eigen::Vector3d mean_normal = Eigen::Vector3d::Zero();
    weights.resize(near.size());
    for (std::size_t i = 0; i < near.size(); ++i) {
      const double t = h_sq > 0 ? 1 - near[i].distance_sq / h_sq : 1.0;
      weights[i] = t * t * t * t;
    }
    // All k equally far (coincident samples, or y at the centre of a sampled
    // sphere): equal weights.
    if (!(*std::max_element(weights.begin(), weights.end()) > 0)) std::fill(weights.begin(), weights.end(), 1.0);
    for (std::size_t i = 0; i < near.size(); ++i) {
      const auto s = static_cast<std::size_t>(near[i].index);
      weight_sum += weights[i];
      centroid += weights[i] * samples_.points[s];
      mean_normal += weights[i] * samples_.normals[s];
    }
    centroid /= weight_sum;
    Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
    for (std::size_t i = 0; i < near.size(); ++i) {
      const Eigen::Vector3d d = samples_.points[static_cast<std::size_t>(near[i].index)] - centroid;
      covariance += weights[i] * d * d.transpose();
    }
    if (!(mean_normal.norm() > 0.1 * weight_sum)) {
      throw ComputationError("MLS projection of " + point_text(x) + ": the samples about " + point_text(y) +
                             " have opposing normals (a sheet thinner than the neighbourhood)");
    }
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen;
    eigen.computeDirect(covariance);
    Eigen::Vector3d normal = eigen.eigenvectors().col(0);
    // Collinear or coincident samples fix no plane: the mean normal does.
    const Eigen::Vector3d lambda = eigen.eigenvalues();
    if (!(lambda(1) - lambda(0) > 1e-9 * lambda.sum())) normal = mean_normal;
    normal.normalize();
    if (normal.dot(mean_normal) < 0) normal = -normal;
    const Eigen::Vector3d step = -((y - centroid).dot(normal)) * normal;
    y += step;
    if (step.norm() <= options_.tolerance * std::sqrt(h_sq)) {
      MlsProjection on_plane{y, normal, std::sqrt(h_sq), iteration};
      const MlsProjection projection = options_.degree == 2 ? with_quadratic(on_plane, near, weights) : on_plane;
      // Coordinates near the overflow threshold square to infinity.
      if (!(projection.point.allFinite() && projection.normal.allFinite() && std::isfinite(projection.radius))) {
        throw ComputationError("MLS projection of " + point_text(x) + " overflows (coordinates too large)");
      }
      return projection;
    }
  }
  throw ComputationError("MLS projection of " + point_text(x) + " did not converge in " +
                         std::to_string(options_.max_iterations) + " iterations (last point " + point_text(y) + ")");
}

double MlsSurface::signed_distance(const Eigen::Vector3d& x) const {
  const MlsProjection on_surface = project(x);
  return (x - on_surface.point).dot(on_surface.normal);
}

SampleDistance MlsSurface::nearest_sample_distance(const Eigen::Vector3d& x) const {
  if (!x.allFinite()) throw InputError("signed distance of a non-finite point");
  const Neighbour nearest = index_.nearest(x);
  const auto s = static_cast<std::size_t>(nearest.index);
  return {nearest.index, (x - samples_.points[s]).dot(samples_.normals[s])};
}

}  // namespace contactref::quasi_rigid
