#include "reference/quasi_rigid/point_contact.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <sstream>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include "core/errors.hpp"
#include "reference/quasi_rigid/contact_plane_grid.hpp"
#include "reference/quasi_rigid/elastic_lcp.hpp"
#include "reference/quasi_rigid/fft_contact.hpp"
#include "reference/quasi_rigid/point_index.hpp"
#include "reference/quasi_rigid/shepard_interpolant.hpp"

namespace contactref::quasi_rigid {

namespace {

// The mean n . n_other of a body's samples inside the other must be below
// this (find_active).
constexpr double kLeastOpposition = -0.5;

void check_options(const ContactOptions& options, const QuasiRigidBody& A, const QuasiRigidBody& B) {
  std::ostringstream bad;
  if (A.material().E == 0 && B.material().E == 0) {
    bad << "quasi-rigid contact: " << A.name() << " and " << B.name() << " are both rigid (E = 0): nothing deforms";
  } else if (options.kernel == ResponseKernel::Kind::kVolumePreserving &&
             !(std::isfinite(options.sigma) && options.sigma > 0)) {
    bad << "quasi-rigid contact: the volume-preserving kernel needs a finite sigma > 0 (m), got " << options.sigma;
  } else if (!(std::isfinite(options.active_range) && options.active_range > 0)) {
    bad << "quasi-rigid contact: active_range must be finite and > 0 (spacings), got " << options.active_range;
  } else if (options.iterations < 1 || options.iterations > kMaxSplitIterations) {
    bad << "quasi-rigid contact: iterations must be in [1, " << kMaxSplitIterations << "] (the paper's: 3), got "
        << options.iterations;
  } else if ((options.initial_traction_a.size() > 0 &&
              options.initial_traction_a.size() != static_cast<Eigen::Index>(A.surface().samples().points.size())) ||
             (options.initial_traction_b.size() > 0 &&
              options.initial_traction_b.size() != static_cast<Eigen::Index>(B.surface().samples().points.size()))) {
    bad << "quasi-rigid contact: an initial traction needs one value per sample of its body";
  } else if (options.max_growth < 0) {
    bad << "quasi-rigid contact: max_growth must be >= 0, got " << options.max_growth;
  } else if (!(std::isfinite(options.load_tolerance) && options.load_tolerance > 0)) {
    bad << "quasi-rigid contact: load_tolerance must be finite and > 0, got " << options.load_tolerance;
  } else if (options.max_active < 1) {
    bad << "quasi-rigid contact: max_active must be >= 1, got " << options.max_active;
  } else if (options.response_operator == ResponseOperator::kFftHalfSpace &&
             (A.material().E == 0) == (B.material().E == 0)) {
    bad << "quasi-rigid contact: the FFT half-space operator needs one rigid body (E = 0) and one deformable: "
        << A.name() << " and " << B.name() << " are both deformable";
  } else if (options.response_operator == ResponseOperator::kFftHalfSpace &&
             !(std::isfinite(options.grid_spacing) && options.grid_spacing >= 0)) {
    bad << "quasi-rigid contact: grid_spacing must be finite and >= 0 (m; 0: a cell per sample), got "
        << options.grid_spacing;
  }
  if (!bad.str().empty()) throw InputError(bad.str());
}

// One body in the frame of the other ("here": X's samples, "there": Y).
struct Side {
  const QuasiRigidBody& body;
  const QuasiRigidBody& other;
  RigidPose<double> E_other_here;  // X's frame in Y's
  BodyContact& out;
  bool solves = true;  // Eq. 10 on X's samples (else X's tractions are interpolated from Y's)
};

// The leaf clusters of each body whose bounding spheres come within `margin`
// of a leaf of the other's (both hierarchies traversed together, in B's frame).
void overlapping_leaves(const ClusterHierarchy& a, const RigidPose<double>& E_b_a, const ClusterHierarchy& b,
                        double margin, std::vector<char>& leaf_a, std::vector<char>& leaf_b) {
  leaf_a.assign(a.clusters().size(), 0);
  leaf_b.assign(b.clusters().size(), 0);
  std::vector<std::pair<int, int>> pending{{0, 0}};
  while (!pending.empty()) {
    const auto [ia, ib] = pending.back();
    pending.pop_back();
    const Cluster& ca = a.clusters()[static_cast<std::size_t>(ia)];
    const Cluster& cb = b.clusters()[static_cast<std::size_t>(ib)];
    if ((E_b_a * ca.centre - cb.centre).norm() > ca.radius + cb.radius + margin) continue;
    if (ca.leaf() && cb.leaf()) {
      leaf_a[static_cast<std::size_t>(ia)] = 1;
      leaf_b[static_cast<std::size_t>(ib)] = 1;
    } else if (cb.leaf() || (!ca.leaf() && ca.radius >= cb.radius)) {
      pending.emplace_back(ca.children[0], ib);
      pending.emplace_back(ca.children[1], ib);
    } else {
      pending.emplace_back(ia, cb.children[0]);
      pending.emplace_back(ia, cb.children[1]);
    }
  }
}

// ComputationError: body's contact reaches the rim of its sampled surface
// (SurfaceSampling::rim) at sample s, which penetrates the other body or
// carries traction (`how`): the contact goes on where nothing is sampled,
// and its load would be that of a truncated surface.
[[noreturn]] void refuse_rim_contact(const QuasiRigidBody& body, std::size_t s, const char* how) {
  const Eigen::Vector3d& q = body.surface().samples().points[s];
  std::ostringstream os;
  os << "quasi-rigid contact: the contact reaches the rim of " << body.name() << "'s sampled surface (sample " << s
     << " at (" << q.x() << ", " << q.y() << ", " << q.z() << ") m, " << how
     << "): its load would be that of the truncated surface; sample the surface the contact reaches";
  throw ComputationError(os.str());
}

// The samples of the flagged leaves that lie inside the other surface
// (nearest-sample distance < 0), and the active samples about them;
// refuse_rim: refuse_rim_contact where a penetrating sample is on the rim.
void find_active(const Side& side, const std::vector<char>& leaves, double range, int max_active, bool refuse_rim) {
  const ClusterHierarchy& hierarchy = side.body.hierarchy();
  const SurfaceSamples& samples = side.body.surface().samples();
  const SurfaceSamples& other = side.other.surface().samples();
  std::vector<char> active(samples.points.size(), 0);
  std::vector<char> off_surface(samples.points.size(), 0);  // below the plane of a sample, past the other's surface
  // The flagged leaves' samples, and their distances on oneTBB's threads.
  std::vector<int> candidates;
  for (std::size_t c = 0; c < leaves.size(); ++c) {
    if (!leaves[c]) continue;
    const Cluster& cluster = hierarchy.clusters()[c];
    for (int k = cluster.first; k < cluster.first + cluster.count; ++k) {
      candidates.push_back(hierarchy.order()[static_cast<std::size_t>(k)]);
    }
  }
  std::vector<SampleDistance> distance(candidates.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, candidates.size()), [&](const tbb::blocked_range<std::size_t>& part) {
    for (std::size_t k = part.begin(); k != part.end(); ++k) {
      distance[k] = side.other.nearest_sample_distance(side.E_other_here * samples.points[static_cast<std::size_t>(candidates[k])]);
    }
  });
  std::vector<int> penetrating;  // inside the other surface
  int met = 0;                   // inside or on it
  double facing = 0;             // the sum of n . n_other over the samples met
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const int s = candidates[k];
    const SampleDistance& d = distance[k];
    if (d.off_surface) off_surface[static_cast<std::size_t>(s)] = 1;
    if (d.distance > 0) continue;
    ++met;
    const Eigen::Vector3d n_other_here = side.E_other_here.rotation() * samples.normals[static_cast<std::size_t>(s)];
    facing += n_other_here.dot(other.normals[static_cast<std::size_t>(d.sample)]);
    if (d.distance != 0) penetrating.push_back(s);  // not touching
  }
  // The samples within range of each penetrating one, found on oneTBB's
  // threads (each penetrating sample's in its own list), then marked.
  std::vector<std::vector<Neighbour>> about(penetrating.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, penetrating.size()), [&](const tbb::blocked_range<std::size_t>& part) {
    for (std::size_t k = part.begin(); k != part.end(); ++k) {
      const int s = penetrating[k];
      side.body.surface().index().within(samples.points[static_cast<std::size_t>(s)], range * side.body.sampling().spacing()(s), about[k]);
    }
  });
  for (std::size_t k = 0; k < penetrating.size(); ++k) {
    active[static_cast<std::size_t>(penetrating[k])] = 1;
    for (const Neighbour& n : about[k]) active[static_cast<std::size_t>(n.index)] = 1;
  }
  // A displacement u along -n moves a sample's distance from the other
  // surface by -u n . n_other: deformation resolves penetration where the
  // normals oppose, each split iteration leaving a fraction 1 - |n . n_other|
  // of it. Unless the samples inside (or on) the other surface oppose its
  // normals within 60 degrees on the whole (mean n . n_other below -1/2),
  // the body's surface lies inside the other body (nested, coincident
  // surfaces as a body and its copy at the same pose, an overlap past the
  // other's centre of curvature) or meets it side-on (a sheet's rim slicing
  // into a face): not a contact the model resolves.
  if (met > 0 && facing > kLeastOpposition * met) {
    std::ostringstream os;
    os << "quasi-rigid contact: the " << met << " samples of " << side.body.name() << " inside or on "
       << side.other.name() << " do not face its surface there (mean n . n_other " << facing / met
       << ", need below -1/2): one body lies inside the other, their surfaces nearly coincide, they overlap too "
          "deeply, or a rim meets a surface side-on";
    throw ComputationError(os.str());
  }
  if (refuse_rim) {
    for (int s : penetrating) {
      if (side.body.sampling().rim()[static_cast<std::size_t>(s)]) {
        refuse_rim_contact(side.body, static_cast<std::size_t>(s), "penetrating");
      }
    }
  }
  side.out.penetrating = static_cast<int>(penetrating.size());
  // A sample past the other's sampled surface (beyond a sheet's rim, beside
  // a convex edge) faces nothing: the other's MLS gap would extend the
  // surface's plane to it.
  for (std::size_t s = 0; s < active.size(); ++s) {
    if (active[s] && !off_surface[s]) side.out.active.push_back(static_cast<int>(s));
  }
  if (static_cast<int>(side.out.active.size()) > max_active) {
    throw ComputationError("quasi-rigid contact: " + side.body.name() + " has " +
                           std::to_string(side.out.active.size()) + " active samples, more than max_active = " +
                           std::to_string(max_active) + " (sample it more coarsely)");
  }
}

// The other body's samples about the contact, with its active samples moved
// inward by their displacements, as an MLS surface in its own frame; behind
// each of its points, the other body's sample and its position among the
// other's active samples (-1: not active).
struct DeformedPatch {
  MlsSurface surface;
  std::vector<int> source;
  std::vector<Eigen::Index> active;
};

DeformedPatch deformed_patch(const Side& side, const BodyContact& other_contact) {
  const SurfaceSamples& other = side.other.surface().samples();
  const SurfaceSamples& here = side.body.surface().samples();
  // The other's samples within the MLS neighbourhood's reach of an active
  // sample (in the other's frame): every sample of each leaf cluster of its
  // hierarchy whose bounding sphere comes that close to one (a ball about
  // all the active samples held most of the foot, its top too).
  std::vector<Eigen::Vector3d> active_there;
  for (int s : side.out.active) active_there.push_back(side.E_other_here * here.points[static_cast<std::size_t>(s)]);
  const PointIndex active_index(std::move(active_there));
  const double mls_reach = 4 * side.other.sampling().spacing().maxCoeff() *
                           std::sqrt(static_cast<double>(side.other.surface().options().neighbours));
  const ClusterHierarchy& hierarchy = side.other.hierarchy();
  const auto near_active = [&](const Cluster& cluster) {
    const double within = cluster.radius + mls_reach;
    return active_index.nearest(cluster.centre).distance_sq <= within * within;
  };
  // The hierarchy's top levels, down to some 64 subtrees within reach, then
  // each subtree on one of oneTBB's threads (its samples in its own list).
  std::vector<int> subtrees, pending{0};
  while (!pending.empty() && subtrees.size() + pending.size() < 64) {
    const int c = pending.back();
    pending.pop_back();
    const Cluster& cluster = hierarchy.clusters()[static_cast<std::size_t>(c)];
    if (!near_active(cluster)) continue;
    if (cluster.leaf()) {
      subtrees.push_back(c);
    } else {
      pending.insert(pending.end(), cluster.children.begin(), cluster.children.end());
    }
  }
  subtrees.insert(subtrees.end(), pending.begin(), pending.end());
  std::vector<std::vector<int>> reach_of(subtrees.size());
  tbb::parallel_for(std::size_t{0}, subtrees.size(), [&](std::size_t t) {
    std::vector<int> below{subtrees[t]};
    while (!below.empty()) {
      const Cluster& cluster = hierarchy.clusters()[static_cast<std::size_t>(below.back())];
      below.pop_back();
      if (!near_active(cluster)) continue;
      if (cluster.leaf()) {
        for (int k = cluster.first; k < cluster.first + cluster.count; ++k) {
          reach_of[t].push_back(hierarchy.order()[static_cast<std::size_t>(k)]);
        }
      } else {
        below.insert(below.end(), cluster.children.begin(), cluster.children.end());
      }
    }
  });
  std::vector<int> reach;
  for (const std::vector<int>& samples : reach_of) reach.insert(reach.end(), samples.begin(), samples.end());
  std::sort(reach.begin(), reach.end());
  std::vector<Eigen::Index> position(other.points.size(), -1);
  for (std::size_t k = 0; k < other_contact.active.size(); ++k) {
    position[static_cast<std::size_t>(other_contact.active[k])] = static_cast<Eigen::Index>(k);
  }
  SurfaceSamples patch;
  patch.name = other.name + " (deformed, about the contact)";
  std::vector<int> source;
  std::vector<Eigen::Index> active;
  for (int sample : reach) {
    const auto s = static_cast<std::size_t>(sample);
    const Eigen::Index k = position[s];
    const double moved = k >= 0 ? other_contact.displacement(k) : 0.0;
    patch.points.push_back(other.points[s] - moved * other.normals[s]);
    patch.normals.push_back(other.normals[s]);
    source.push_back(sample);
    active.push_back(k);
  }
  return {MlsSurface(std::move(patch), side.other.surface().options()), std::move(source), std::move(active)};
}

// Eq. 10 with R_B = 0: a rigid body's tractions are its deformable
// partner's where they touch (p_A = p_B), the partner's tractions
// interpolated (Eq. 5) at the rigid body's active samples from the
// partner's deformed samples about the contact.
Eigen::VectorXd partner_tractions(const Side& side, const DeformedPatch& patch, const BodyContact& other_contact) {
  Eigen::VectorXd spacing(static_cast<Eigen::Index>(patch.source.size()));
  Eigen::VectorXd traction = Eigen::VectorXd::Zero(spacing.size());
  for (std::size_t k = 0; k < patch.source.size(); ++k) {
    spacing(static_cast<Eigen::Index>(k)) = side.other.sampling().spacing()(patch.source[k]);
    if (patch.active[k] >= 0) traction(static_cast<Eigen::Index>(k)) = other_contact.traction(patch.active[k]);
  }
  const ShepardInterpolant interpolant(patch.surface.index(), spacing, side.other.sampling().shepard());
  const SurfaceSamples& here = side.body.surface().samples();
  Eigen::VectorXd p(static_cast<Eigen::Index>(side.out.active.size()));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, side.out.active.size()), [&](const tbb::blocked_range<std::size_t>& range) {
    std::vector<Neighbour> near;
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      p(static_cast<Eigen::Index>(k)) =
          interpolant(traction, side.E_other_here * here.points[static_cast<std::size_t>(side.out.active[k])], near);
    }
  });
  return p;
}

// The separation of each active sample, moved by its own displacement, from
// the other surface (deformed: `patch`; or as it is).
Eigen::VectorXd measure(const Side& side, const MlsSurface& other_surface) {
  const SurfaceSamples& here = side.body.surface().samples();
  Eigen::VectorXd separation(static_cast<Eigen::Index>(side.out.active.size()));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, side.out.active.size()), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      const auto s = static_cast<std::size_t>(side.out.active[k]);
      const double u = side.out.displacement.size() > 0 ? side.out.displacement(static_cast<Eigen::Index>(k)) : 0.0;
      separation(static_cast<Eigen::Index>(k)) =
          other_surface.signed_distance(side.E_other_here * (here.points[s] - u * here.normals[s]));
    }
  });
  return separation;
}

// The FFT operator on a solving body's active samples
// (ResponseOperator::kFftHalfSpace): the grid in the contact plane, the
// operator on it, and the last solve's cell pressures (where the next split
// iteration's solve starts).
struct PlaneSolve {
  ContactPlaneGrid grid;
  FftHalfSpace K;
  Eigen::ArrayXXd pressure;
};

// None where no active sample overlaps the other body (gap < 0): the
// tractions stay 0, as the LCP's would.
std::optional<PlaneSolve> plane_solve(const Side& side, const ResponseKernel& kernel, double grid_spacing) {
  const BodyContact& out = side.out;
  if (!(out.gap.array() < 0).any()) return std::nullopt;
  const SurfaceSamples& samples = side.body.surface().samples();
  PlaneSamples plane;
  for (int s : out.active) {
    plane.points.push_back(samples.points[static_cast<std::size_t>(s)]);
    plane.normals.push_back(samples.normals[static_cast<std::size_t>(s)]);
  }
  plane.area = out.area;
  plane.spacing = side.body.sampling().spacing()(out.active);
  plane.width = side.body.sampling().shepard().width;
  plane.support = side.body.sampling().shepard().support;
  plane.gap = out.gap;
  const double cell = grid_spacing > 0 ? grid_spacing : std::sqrt(plane.area.mean());
  // The grid's edge error is of order h / a (the staircase of cells along
  // the contact's edge: fft_contact_test's Hertz orders), so a contact of
  // equivalent radius a = sqrt(penetrating area / pi) below
  // kFftCellsPerContactRadius cells is not resolved: it loses a quarter or
  // more of itself, or the whole (one penetrating sample), in place of a
  // load.
  const double penetrating_area = (out.gap.array() < 0).select(out.area.array(), 0.0).sum();
  const double radius = std::sqrt(penetrating_area / std::numbers::pi);
  if (radius < kFftCellsPerContactRadius * cell) {
    std::ostringstream os;
    os << "quasi-rigid contact (" << side.body.name() << "): the FFT grid does not resolve the contact: its "
       << "penetrating samples cover a disk of radius " << radius << " m, under " << kFftCellsPerContactRadius
       << " cells of " << cell << " m; a finer grid spacing, or the exact operator";
    throw ComputationError(os.str());
  }
  ContactPlaneGrid grid(plane, cell, "quasi-rigid contact (" + side.body.name() + ")");
  FftHalfSpace K(kernel, cell, grid.nx(), grid.ny());
  return PlaneSolve{std::move(grid), std::move(K), Eigen::ArrayXXd()};
}

// One solve of Eq. 10 on the plane's grid (Polonsky & Keer), from the last
// one's pressures: the tractions at the samples, and R p there (the grid's
// displacement). Before the last split iteration to 1e-6 of the deepest
// overlap, as the LCP's screening.
void solve_on_plane(std::optional<PlaneSolve>& plane, const Eigen::VectorXd& undeformed_gap, bool full,
                    BodyContact& out, Eigen::VectorXd& Rp) {
  if (!plane) {
    out.traction.setZero();
    Rp.setZero();
    return;
  }
  GridContactOptions grid_options;
  if (!full) grid_options.tolerance = 1e-6;
  const GridContact solved =
      solve_grid_contact(plane->K, plane->grid.to_cells(undeformed_gap), plane->pressure, grid_options);
  plane->pressure = solved.pressure;
  out.traction = plane->grid.pressure_at_samples(solved.pressure);
  out.cg_iterations += solved.iterations;
  Rp = plane->grid.bilinear_at_samples(solved.displacement);
}

void wrench(const QuasiRigidBody& body, const RigidPose<double>& E_w_body, BodyContact& out) {
  const SurfaceSamples& samples = body.surface().samples();
  const Eigen::Matrix3d Theta_w_body = E_w_body.rotation();
  out.load = out.traction.dot(out.area);
  for (std::size_t k = 0; k < out.active.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    const auto s = static_cast<std::size_t>(out.active[k]);
    const Eigen::Vector3d x_body = samples.points[s] - out.displacement(i) * samples.normals[s];
    const Eigen::Vector3d f_w = -out.traction(i) * out.area(i) * (Theta_w_body * samples.normals[s]);
    out.force_w += f_w;
    out.torque_w += (Theta_w_body * x_body).cross(f_w);
    out.pressure_centre_w += out.traction(i) * out.area(i) * (Theta_w_body * x_body);
    if (out.traction(i) > 0) out.contact_area += out.area(i);
  }
  if (out.load > 0) out.pressure_centre_w /= out.load;
}

}  // namespace

namespace {

// Whether any active sample on the rim of its body's active set (an inactive
// sample within 1.5 of its spacings) carries traction: Section 6.1's sign that
// the active set is too small (the volume-preserving kernel's bulge reaches
// beyond the penetration).
bool rim_loaded(const QuasiRigidBody& body, const BodyContact& out) {
  const SurfaceSamples& samples = body.surface().samples();
  std::vector<char> active(samples.points.size(), 0);
  for (int s : out.active) active[static_cast<std::size_t>(s)] = 1;
  std::vector<Neighbour> near;
  for (std::size_t k = 0; k < out.active.size(); ++k) {
    if (!(out.traction(static_cast<Eigen::Index>(k)) > 0)) continue;
    const int s = out.active[k];
    body.surface().index().within(samples.points[static_cast<std::size_t>(s)], 1.5 * body.sampling().spacing()(s), near);
    for (const Neighbour& n : near) {
      if (!active[static_cast<std::size_t>(n.index)]) return true;
    }
  }
  return false;
}

// The displacement of every sample the loaded samples reach: the active ones,
// and for the volume-preserving kernel those within 5 sigma of a loaded one
// (beyond, its Gaussian is below 4e-6 of its peak: the volume it leaves out is
// below 1e-5 of the indentation's).
void displaced_field(const QuasiRigidBody& body, const ResponseKernel& kernel, double share, double near,
                     BodyContact& out) {
  const SurfaceSamples& samples = body.surface().samples();
  std::vector<char> reached(samples.points.size(), 0);  // 1: within reach, 2: active
  if (kernel.kind == ResponseKernel::Kind::kVolumePreserving) {
    // Every sample within 5 sigma of its nearest loaded one (a k-d tree of
    // the loaded samples: one query per sample, where a range query per
    // loaded sample would return each of them many times).
    std::vector<Eigen::Vector3d> loaded;
    for (std::size_t k = 0; k < out.active.size(); ++k) {
      if (out.traction(static_cast<Eigen::Index>(k)) > 0) loaded.push_back(samples.points[static_cast<std::size_t>(out.active[k])]);
    }
    if (!loaded.empty()) {
      const PointIndex loaded_index(std::move(loaded));
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, samples.points.size()), [&](const tbb::blocked_range<std::size_t>& range) {
        for (std::size_t s = range.begin(); s != range.end(); ++s) {
          if (loaded_index.any_within(samples.points[s], 5 * kernel.sigma)) reached[s] = 1;
        }
      });
    }
  }
  // The active samples' displacements are known (BodyContact::displacement,
  // from R); the others' are summed (their far field in single precision).
  for (int s : out.active) reached[static_cast<std::size_t>(s)] = 2;
  std::vector<int> beyond;
  for (std::size_t s = 0; s < reached.size(); ++s) {
    if (reached[s] == 1) beyond.push_back(static_cast<int>(s));
  }
  const Eigen::VectorXd u_beyond =
      share * body.sampling().displacement(beyond, out.active, out.traction, kernel, near, FarPrecision::kSingle);
  out.displaced.clear();
  out.displaced_u.resize(static_cast<Eigen::Index>(out.active.size() + beyond.size()));
  Eigen::Index next_active = 0, next_beyond = 0;
  for (std::size_t s = 0; s < reached.size(); ++s) {
    if (!reached[s]) continue;
    out.displaced_u(static_cast<Eigen::Index>(out.displaced.size())) =
        reached[s] == 2 ? out.displacement(next_active++) : u_beyond(next_beyond++);
    out.displaced.push_back(static_cast<int>(s));
  }
  out.displaced_volume = 0;
  out.displaced_absolute_volume = 0;
  for (std::size_t k = 0; k < out.displaced.size(); ++k) {
    const double a_u = body.sampling().areas()(out.displaced[k]) * out.displaced_u(static_cast<Eigen::Index>(k));
    out.displaced_volume += a_u;
    out.displaced_absolute_volume += std::abs(a_u);
  }
}

// QuasiRigidContact's consistency from the iterations' loads of the solving
// bodies.
void settle(QuasiRigidContact& result, double tolerance) {
  if (result.iterations.size() < 2) return;
  const ContactIteration& now = result.iterations.back();
  const ContactIteration& before = result.iterations[result.iterations.size() - 2];
  double change = 0;
  for (const auto& [load, previous] : {std::pair{now.load_a, before.load_a}, std::pair{now.load_b, before.load_b}}) {
    if (!load || !previous) continue;
    const double difference = std::abs(*load - *previous);
    if (difference > 0) change = std::max(change, difference / std::max(std::abs(*load), std::abs(*previous)));
  }
  result.load_change = change;
  if (now.load_a && now.load_b && result.a.interpolated == result.b.interpolated) {
    const double larger = std::max(std::abs(*now.load_a), std::abs(*now.load_b));
    result.load_mismatch = larger > 0 ? std::abs(*now.load_a - *now.load_b) / larger : 0.0;
  }
  result.settled = change <= tolerance && result.load_mismatch.value_or(0.0) <= tolerance;
}

}  // namespace

double ContactIteration::min_separation() const {
  if (min_separation_a && min_separation_b) return std::min(*min_separation_a, *min_separation_b);
  return min_separation_a.value_or(min_separation_b.value_or(0.0));
}

QuasiRigidContact resolve_contact(const QuasiRigidBody& A, const RigidPose<double>& E_w_a, const QuasiRigidBody& B,
                                  const RigidPose<double>& E_w_b, const ContactOptions& options) {
  check_options(options, A, B);
  const double c_a = A.material().compliance(), c_b = B.material().compliance(), c = c_a + c_b;
  const ResponseKernel kernel{options.kernel, c, options.sigma};
  kernel.check("quasi-rigid contact");
  if (!(std::isfinite(options.near) && options.near >= std::max(A.sampling().shepard().support, B.sampling().shepard().support))) {
    throw InputError("quasi-rigid contact: near must be finite and at least the kernels' support, got " +
                     std::to_string(options.near));
  }
  const RigidPose<double> E_b_a = E_w_b.inverse() * E_w_a;
  const double largest_spacing = std::max(A.sampling().spacing().maxCoeff(), B.sampling().spacing().maxCoeff());

  for (int growth = 0;; ++growth) {
    QuasiRigidContact result;
    result.composite_compliance = c;
    result.growth_rounds = growth;
    const double range = options.active_range + 2.0 * growth;  // Section 6.1: grow by two spacings a round
    Side a{A, B, E_b_a, result.a};
    Side b{B, A, E_b_a.inverse(), result.b};
    std::vector<char> leaves_a, leaves_b;
    overlapping_leaves(A.hierarchy(), E_b_a, B.hierarchy(), range * largest_spacing, leaves_a, leaves_b);
    find_active(a, leaves_a, range, options.max_active, options.refuse_rim);
    find_active(b, leaves_b, range, options.max_active, options.refuse_rim);
    if (result.a.penetrating == 0 && result.b.penetrating == 0) {
      result.a.active.clear();
      result.b.active.clear();
      return result;
    }
    // R_B = 0 beside a rigid body: one LCP, on the deformable body's
    // samples; on the rigid body's where the deformable body has none
    // active (a contact between its samples, as where a sphere's lowest
    // point lies between its samples and only the plane's samples meet it:
    // Eq. 10 with R_A represented on the rigid body's samples, as the split
    // scheme does).
    for (Side* side : {&a, &b}) {
      if (side->body.material().E > 0 && side->other.material().E == 0) {
        side->solves = !side->out.active.empty();
        (side == &a ? b : a).solves = !side->solves;
      }
    }
    result.a.interpolated = !a.solves;
    result.b.interpolated = !b.solves;
    const bool fft = options.response_operator == ResponseOperator::kFftHalfSpace;
    Eigen::MatrixXd R_a, R_b;
    std::optional<ElasticLcp> lcp_a, lcp_b;  // each iteration's LCP with R_a, R_b
    std::optional<PlaneSolve> plane_a, plane_b;  // or the FFT operator's
    Eigen::VectorXd Rp_a, Rp_b;  // R p of the last solve (zero before the first)
    for (Side* side : {&a, &b}) {
      BodyContact& out = side->out;
      const auto n = static_cast<Eigen::Index>(out.active.size());
      out.area.resize(n);
      for (Eigen::Index k = 0; k < n; ++k) out.area(k) = side->body.sampling().areas()(out.active[static_cast<std::size_t>(k)]);
      out.gap = measure(*side, side->other.surface());
      out.separation = out.gap;
      out.traction = Eigen::VectorXd::Zero(n);
      out.displacement = Eigen::VectorXd::Zero(n);
      (side == &a ? Rp_a : Rp_b) = Eigen::VectorXd::Zero(n);
      if (side->solves && fft) {
        (side == &a ? plane_a : plane_b) = plane_solve(*side, kernel, options.grid_spacing);
      } else if (side->solves) {
        Eigen::MatrixXd& R = side == &a ? R_a : R_b;
        R = side->body.sampling().response(out.active, kernel, options.near);
        (side == &a ? lcp_a : lcp_b).emplace(R);
      }
    }

    for (int iteration = 0; iteration < options.iterations; ++iteration) {
      for (Side* side : {&a, &b}) {
        BodyContact& out = side->out;
        if (out.active.empty() || !side->solves) continue;
        Eigen::VectorXd& Rp = side == &a ? Rp_a : Rp_b;
        const Eigen::VectorXd undeformed_gap = out.separation - Rp;
        // Before the last iteration the tractions only move the samples
        // that the next one measures from: to a relative residual of 1e-6
        // (ElasticLcp::solve; 1e-6 of the displacements, below a nanometre
        // here).
        const bool full = iteration + 1 == options.iterations;
        // Its share of the approach; all of it when the other body does not
        // solve (a rigid body solving carries its partner's deformation in
        // the separations it measures, and displaces nothing in the end).
        const bool both = a.solves && b.solves;
        const double share = both ? (side == &a ? c_a : c_b) / c : 1.0;
        if (fft) {
          solve_on_plane(side == &a ? plane_a : plane_b, undeformed_gap, full, out, Rp);
          out.displacement = share * Rp;
          continue;
        }
        const Eigen::VectorXd& guess = side == &a ? options.initial_traction_a : options.initial_traction_b;
        std::vector<bool> initial_free;
        Eigen::VectorXd initial_p;  // where the iterative solves start
        if (iteration > 0) {
          // The last iteration's contact: the next one moves it a little.
          for (Eigen::Index k = 0; k < out.traction.size(); ++k) initial_free.push_back(out.traction(k) > 0);
          initial_p = out.traction;
        } else if (guess.size() > 0) {
          // The interpolation smears a coarse level's tractions a kernel
          // width past its contact's edge: samples guessed below a fifth of
          // the largest traction start at p = 0 (on the Hertz case of
          // multi_level_test: 16 pivots against 21 cold, 18 at a twentieth,
          // 19 at a half). Only the pivots depend on it, not the solution.
          double largest = 0;
          for (int s : out.active) largest = std::max(largest, guess(s));
          for (int s : out.active) initial_free.push_back(guess(s) > 0.2 * largest);
          initial_p = guess(out.active);
        }
        const ElasticLcpSolution solved = (side == &a ? lcp_a : lcp_b)->solve(undeformed_gap, initial_free, initial_p, full);
        out.traction = solved.lcp.z;
        out.pivots += solved.lcp.pivots;
        out.lcp_work += solved.lcp.work;
        out.lemke_solves += solved.lemke ? 1 : 0;
        // R p from the solve's w = R p + q (q: the undeformed gap), which
        // it forms with the returned p: no second product.
        Rp = solved.lcp.w - undeformed_gap;
        out.displacement = share * Rp;
      }
      ContactIteration stats;
      const bool last = iteration + 1 == options.iterations;
      for (Side* side : {&a, &b}) {
        if (side->out.active.empty() || (!side->solves && !last)) continue;
        const BodyContact& other = side == &a ? result.b : result.a;
        if (side->other.material().E > 0 && !other.active.empty()) {
          const DeformedPatch patch = deformed_patch(*side, other);
          if (!side->solves) side->out.traction = partner_tractions(*side, patch, other);
          side->out.separation = measure(*side, patch.surface);
        } else {
          side->out.separation = measure(*side, side->other.surface());
        }
        (side == &a ? stats.min_separation_a : stats.min_separation_b) = side->out.separation.minCoeff();
        (side == &a ? stats.load_a : stats.load_b) = side->out.traction.dot(side->out.area);
      }
      result.iterations.push_back(stats);
    }
    // Only a body that solved Eq. 10 can lack room: interpolated tractions
    // reach a Shepard kernel past the partner's loaded samples, and nothing
    // on their samples is solved.
    const bool loaded = (a.solves && rim_loaded(A, result.a)) || (b.solves && rim_loaded(B, result.b));
    if (options.grow_active && loaded && growth < options.max_growth) continue;
    result.rim_loaded = loaded;
    settle(result, options.load_tolerance);
    for (Side* side : {&a, &b}) {
      // A rigid body (E = 0: no share of the approach) displaces nothing.
      if (side->body.material().E == 0) side->out.displacement.setZero();
      if (side->out.active.empty() || side->body.material().E == 0) continue;
      displaced_field(side->body, kernel, (side == &a ? c_a : c_b) / c, options.near, side->out);
    }
    // A rim sample that the contact loads (or its gap finds inside).
    for (const auto& [body, out] : {std::pair{&A, &result.a}, std::pair{&B, &result.b}}) {
      for (std::size_t k = 0; options.refuse_rim && k < out->active.size(); ++k) {
        const auto s = static_cast<std::size_t>(out->active[k]);
        const auto at = static_cast<Eigen::Index>(k);
        if (body->sampling().rim()[s] && (out->traction(at) > 0 || out->gap(at) < 0)) {
          refuse_rim_contact(*body, s, out->traction(at) > 0 ? "loaded" : "inside the other");
        }
      }
    }
    wrench(A, E_w_a, result.a);
    wrench(B, E_w_b, result.b);
    lcp_a.reset();  // before their matrices go
    lcp_b.reset();
    if (R_a.size() > 0) A.sampling().recycle(std::move(R_a));
    if (R_b.size() > 0) B.sampling().recycle(std::move(R_b));
    return result;
  }
}

}  // namespace contactref::quasi_rigid
