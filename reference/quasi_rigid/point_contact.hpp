#pragma once
// The contact of two quasi-rigid bodies at given poses (Pauly et al.
// Sections 4.1-4.2 and 5), by the paper's split scheme: two LCPs, one on
// each body's active samples, without point correspondences.
//
// 1. Detection (Section 4.1): the two clustering hierarchies, traversed
//    together, keep the leaf clusters whose bounding spheres come within a
//    margin (active_range spacings) of the other body's; their samples with a
//    negative nearest-sample distance to the other surface penetrate
//    (QuasiRigidBody::nearest_sample_distance: none past the other's sampled
//    surface, beyond a plate's rim or beside a convex edge; a sample there
//    below the plane of its nearest sample is not active either). A
//    displacement u along -n changes a sample's distance by -u n . n_other
//    (n_other at its nearest sample of the other body): deformation resolves
//    penetration where the normals oppose. A body whose samples inside or on
//    the other surface do not oppose its normals within 60 degrees on the
//    whole (the mean of n . n_other over them not below -1/2) lies inside
//    it, nested, with coincident surfaces or too deep, or meets it side-on
//    (a plate's rim slicing into a side): refused. (Single samples may agree:
//    a side face at a contact's edge, or the nearest sample of a coarse
//    level lying on the far side of a thin part. Measured means: -0.80 on
//    two 5 cm spheres overlapping by 1 cm, -0.85 at worst on the foot's
//    quick variant, -0.29 on a plate's rim 5 mm into a sphere.)
// 2. Active samples: the penetrating ones and every sample within
//    active_range spacings of one (the paper's range query).
// 3. Gaps: each active sample's MLS signed distance to the other surface.
// 4. On each deformable body, Eq. 10, s = R p + g, with R the response of its own
//    active samples (sampled_response.hpp) under the composite compliance
//    c = c_A + c_B (= 1 / (pi E*), so that a rigid partner works: notes A.1.7
//    (i)). Each body takes the share c_X / c of the approach R p.
//    When one body is rigid (E = 0), R_B = 0 in Eq. 10's R = R_A + R_B:
//    one LCP, on the deformable body A, with the whole approach its own;
//    the rigid body's tractions are A's where they touch (p_A = p_B),
//    interpolated (Eq. 5) at its active samples from A's deformed samples.
//    (A second LCP on the rigid body's samples, as the split scheme would
//    solve, feeds nothing back: a rigid body does not move.) Where A has no
//    active sample but the rigid body has (the contact lies between A's
//    samples: a sphere's lowest point between its samples), the one LCP is
//    on the rigid body's samples, with R_A represented there as the split
//    scheme does.
// 5. The iteration (notes A.1.7 (ii)): after each solve both bodies deform by
//    their shares along their normals, each active sample's separation s from
//    the other deformed surface is measured (MLS of the other body's samples
//    about the contact, displaced), and the next LCP re-estimates the
//    undeformed gap as s - R p and solves for the total tractions. The
//    paper: "three iterations were sufficient". Each iteration's smallest
//    measured separation is its residual (negative: penetration left).
// 6. Section 6.1: where an active set's rim carries traction (the
//    volume-preserving kernel's bulge can touch beyond the penetration), the
//    active sets widen by two spacings and the contact is solved again.
// 7. The wrench on each body from its own tractions: f_i = -p_i a_i n_i at
//    the deformed sample; the two should cancel (Newton's third law is not
//    imposed by the split scheme: it measures it). The displacement field
//    reaches beyond the active samples for the volume-preserving kernel.
#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/rigid_pose.hpp"
#include "reference/quasi_rigid/quasi_rigid_body.hpp"
#include "reference/quasi_rigid/response_matrix.hpp"

namespace contactref::quasi_rigid {

// The split scheme's iterations settle in a few (the paper: three); more
// than this is a mistaken option, not a finer answer.
constexpr int kMaxSplitIterations = 100;

// The response in Eq. 10's LCP beside a rigid body: the sampled response R
// of the solving body's active samples (exact: the reference, the default),
// or, beyond the paper (issue 31, item 3), the FFT half-space operator on a
// grid in the contact plane (contact_plane_grid.hpp, fft_half_space.hpp)
// solved by Polonsky & Keer's constrained conjugate gradient
// (fft_contact.hpp), with the tractions mapped back to the samples. The
// same iterations, separations and wrench follow either; the grid's
// pressure is the normal traction of the samples whose projections it
// holds.
enum class ResponseOperator { kExact, kFftHalfSpace };

// The FFT operator's least resolution: the penetrating samples' equivalent
// radius sqrt(area / pi) in grid cells (resolve_contact refuses a coarser
// grid: its edge error, of order h / a, would be a quarter of the contact
// or more).
inline constexpr double kFftCellsPerContactRadius = 4;

struct ContactOptions {
  ResponseKernel::Kind kernel = ResponseKernel::Kind::kBoussinesq;
  double sigma = 0;          // m: the volume-preserving kernel's width
  double active_range = 3;   // spacings about each penetrating sample
  int iterations = 3;        // LCP solves per body, in [1, kMaxSplitIterations]
  // The contact is consistent when the last iteration changed each solving
  // body's load, and the two loads differ when both bodies solve, by at most
  // this fraction (QuasiRigidContact::settled; the suites' bound on Newton's
  // third law).
  double load_tolerance = 0.02;
  double near = 4;           // the response's near field, in spacings
  int max_active = 6000;     // active samples per body (the response is dense)
  bool grow_active = true;   // Section 6.1: widen the active sets while their rims carry traction,
  int max_growth = 8;        // by two spacings a round, at most this many rounds
  ResponseOperator response_operator = ResponseOperator::kExact;
  // Refuse a contact that reaches the rim of an open sampled surface
  // (ComputationError below). The multi-level solve's coarse levels do not:
  // their cluster centres leave gaps that read as rims, and only its last
  // level's answer stands.
  bool refuse_rim = true;
  // kFftHalfSpace: the grid's cell side (m), or 0: the square root of the
  // solving body's active samples' mean nodal area (a cell per sample).
  double grid_spacing = 0;
  // A warm start (Section 4.3's interpolated tractions): a traction guess
  // (Pa) per sample of A and of B, or empty. The first LCP of each body starts
  // its block pivoting with the active samples the guess loads above a fifth
  // of its largest traction. (The exact operator's; the FFT operator's
  // first solve starts from each cell's own overlap, fft_contact.hpp.)
  Eigen::VectorXd initial_traction_a, initial_traction_b;
};

struct BodyContact {
  std::vector<int> active;        // sample indices, ascending
  int penetrating = 0;            // of them, the samples found inside the other body
  Eigen::VectorXd gap;            // m: the MLS signed distance to the other body before contact
  Eigen::VectorXd traction;       // Pa: p, the Shepard coefficients of the pressure
  Eigen::VectorXd displacement;   // m: this body's share of R p, inward along its normal
  Eigen::VectorXd separation;     // m: measured after the last iteration
  Eigen::VectorXd area;           // m^2: the active samples' nodal areas
  double load = 0;                // N: sum p_i a_i
  double contact_area = 0;        // m^2: sum of a_i where p_i > 0
  Eigen::Vector3d force_w = Eigen::Vector3d::Zero();   // N, on the body, world frame
  Eigen::Vector3d torque_w = Eigen::Vector3d::Zero();  // N m, about the body frame's origin, world frame
  // m: the centre of pressure from the body frame's origin, world axes: the
  // active samples' displaced positions weighted by their loads p_i a_i (0
  // without load).
  Eigen::Vector3d pressure_centre_w = Eigen::Vector3d::Zero();
  // The tractions are interpolated from the other body's (beside a rigid
  // body, only one body solves Eq. 10: step 4), not solved on these samples.
  bool interpolated = false;
  int pivots = 0;                 // of all its LCP solves (none when interpolated)
  int cg_iterations = 0;          // of all its solves with the FFT operator (Polonsky & Keer)
  double lcp_work = 0;            // of all its LCP solves: LcpSolution::work (Lemke's alone where it
                                  // took over); 0 with the FFT operator (no dense product)
  int lemke_solves = 0;           // LCPs that block pivoting could not solve
  // Every sample the tractions displace: the active ones and, for the
  // volume-preserving kernel, those within 5 sigma of a loaded one; their
  // displacements (m, this body's share, inward); the displaced volume
  // sum a_k u_k (m^3; Eq. 3 makes it vanish for the volume-preserving
  // kernel) and sum a_k |u_k|. Empty on a rigid body (E = 0).
  std::vector<int> displaced;
  Eigen::VectorXd displaced_u;
  double displaced_volume = 0, displaced_absolute_volume = 0;
};

struct ContactIteration {
  // m: measured; negative: penetration left. N: the loads. Absent for a
  // body without active samples, and for a body whose tractions are
  // interpolated before the last iteration (nothing iterates on it: it is
  // measured once, after the last).
  std::optional<double> min_separation_a, min_separation_b;
  std::optional<double> load_a, load_b;
  // The smaller of the measured separations (m; 0 when neither is).
  double min_separation() const;
};

struct QuasiRigidContact {
  BodyContact a, b;
  std::vector<ContactIteration> iterations;  // of the last round; empty when nothing penetrates
  double composite_compliance = 0;           // c = c_A + c_B (m^2/N)
  int growth_rounds = 0;                     // Section 6.1's widenings of the active sets
  // The split scheme's consistency (Pauly et al. impose neither): the
  // largest relative change of a solving body's load in the last iteration,
  // |L_k - L_(k-1)| / max(|L_k|, |L_(k-1)|) (absent with one iteration), and
  // with two deformable bodies the relative difference of their loads,
  // |L_A - L_B| / max(L_A, L_B) (absent beside a rigid body: one LCP);
  // settled: both within options.load_tolerance. Two deformable bodies whose
  // sampled surfaces disagree (a coarse foot's MLS bulge on a deformable
  // ground: loads 226 and 187 N, drifting apart by 1-2% an iteration) do not
  // settle: not an answer to print (the contact command exits 1 on it).
  std::optional<double> load_change, load_mismatch;
  bool settled = true;
  bool rim_loaded = false;                   // an active set's rim carries traction at the end (growth
                                             // off, or max_growth rounds were not enough)
};

// E_w_a, E_w_b: the bodies' poses in the world. InputError: both bodies rigid,
// sigma not finite and > 0 for the volume-preserving kernel, active_range not
// finite and > 0, iterations outside [1, kMaxSplitIterations], load_tolerance
// not finite and > 0, near below
// the kernels' support, max_active below 1, an initial traction of another
// size than the body's samples; for kFftHalfSpace: not one rigid and one
// deformable body, grid_spacing not finite and >= 0, penetrating samples
// that are not near-planar or a grid too large (contact_plane_grid.hpp). ComputationError: more than max_active active samples,
// a contact the FFT grid does not resolve (kFftCellsPerContactRadius), a
// contact that reaches the rim of an open sampled surface (a rim sample,
// SurfaceSampling::rim, penetrating or loaded),
// on a body (naming it and the count), a body whose samples inside or on the
// other do not face its surface (one body inside the other, coincident
// surfaces, too deep an overlap, a rim side-on; step 1 above), an MLS
// projection that fails, an LCP that neither solver solves.
QuasiRigidContact resolve_contact(const QuasiRigidBody& A, const RigidPose<double>& E_w_a, const QuasiRigidBody& B,
                                  const RigidPose<double>& E_w_b, const ContactOptions& options = {});


}  // namespace contactref::quasi_rigid
