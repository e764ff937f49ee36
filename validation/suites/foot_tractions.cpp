#include "validation/suites/foot_tractions.hpp"

#include <fmt/format.h>

#include <array>
#include <boost/math/tools/roots.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>

#include "core/errors.hpp"
#include "reference/quasi_rigid/multi_level.hpp"
#include "validation/fixtures/lattice_surfaces.hpp"
#include "validation/fixtures/synthetic_foot.hpp"

namespace contactref::validation {
namespace {

namespace qr = contactref::quasi_rigid;

constexpr double kE = 1e6, kNu = 0.45, kSigma = 0.01;  // Pa, -, m (the header says why)
constexpr double kLoad = 35 * 9.81;                    // N
constexpr double kFootCentre = 0.13;                   // m: the foot frame's x over the ground's origin
constexpr double kGroundRadius = 0.15;                 // m: the sampled ground disk
constexpr double kCell = 7.18e-3;                      // m: the mat's cells (1 / sqrt(1.94 per cm^2))
constexpr int kMatLength = 37, kMatWidth = 13;         // cells along and across the foot
// Fig. 9 (Section 6): 55,061 samples, 11,317 displaced, 952 ms (2.8 GHz Pentium IV).
constexpr double kPaperSamples = 55061, kPaperDisplaced = 11317, kPaperMilliseconds = 952;

struct Variant {
  double spacing = 0;                // m, the foot's and the ground's
  std::vector<int> clusters;         // the coarse levels' largest clusters
  std::vector<double> refinement;    // m: coarser spacings for the convergence rows, coarse first
};

Variant variant(bool quick) {
  if (quick) return {2.6e-3, {64, 16}, {6e-3, 4e-3}};
  return {0.88e-3, {64, 16}, {2.6e-3, 1.8e-3, 1.3e-3}};
}

qr::QuasiRigidBody foot_body(double spacing) {
  return qr::QuasiRigidBody(fixtures::sample_foot(spacing), qr::Material{kE, kNu});
}
qr::QuasiRigidBody ground_body(double spacing) {
  return qr::QuasiRigidBody(fixtures::lattice_plane(spacing, kGroundRadius / spacing), qr::Material{0, 0});
}

// The foot frame over the ground's frame (the world): the foot's middle over
// the origin, lowered by the approach (its lowest points touch z = 0 at 0).
RigidPose<double> foot_pose(double approach) {
  return RigidPose<double>::from_axis_angle(0, Eigen::Vector3d::UnitZ(), Eigen::Vector3d(-kFootCentre, 0, -approach),
                                            "foot pose");
}

qr::ContactOptions contact_options() {
  qr::ContactOptions options;
  options.kernel = qr::ResponseKernel::Kind::kVolumePreserving;
  options.sigma = kSigma;
  return options;
}

using Mat = std::array<std::array<double, kMatWidth>, kMatLength>;  // Pa, [along][across]

// The centre of the mat's cell (along, across) in the foot frame (m).
double cell_x(std::size_t along) { return kFootCentre + (static_cast<double>(along) + 0.5 - kMatLength / 2.0) * kCell; }
double cell_y(std::size_t across) { return (static_cast<double>(across) + 0.5 - kMatWidth / 2.0) * kCell; }

struct FootRun {
  Variant setup;
  std::optional<qr::MultiLevelBody> foot, ground;
  double approach = 0;  // m
  int load_evaluations = 0;
  double first_solve_seconds = 0;  // the root-find's first solve, which computes the near fields it needs
  qr::MultiLevelContact contact;
  double contact_seconds = 0;
  // On the foot's and the ground's samples (the finest level).
  Eigen::VectorXd foot_traction, foot_displacement, ground_traction;  // Pa, m, Pa
  Mat mat{};
  std::vector<std::pair<double, double>> refinement;  // (spacing m, foot load N) at the approach, coarse first
};

// A field at some samples (`values` at `nodes`) on every sample, zero elsewhere.
Eigen::VectorXd on_samples(const qr::QuasiRigidBody& body, const std::vector<int>& nodes, const Eigen::VectorXd& values) {
  Eigen::VectorXd field = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(body.surface().samples().points.size()));
  for (std::size_t k = 0; k < nodes.size(); ++k) field(nodes[k]) = values(static_cast<Eigen::Index>(k));
  return field;
}

// The approach that carries kLoad on the samples: the load grows with it,
// so a bracket, then TOMS 748 to 0.5% of the approach (about 1% of the load,
// which grows like approach^1.5 to approach^2).
void find_approach(FootRun& run) {
  const auto excess = [&](double approach) {
    const auto start = std::chrono::steady_clock::now();
    const double load = qr::resolve_contact(run.foot->levels().back(), foot_pose(approach), run.ground->levels().back(),
                                            RigidPose<double>(), contact_options())
                            .a.load;
    if (run.load_evaluations++ == 0) {
      run.first_solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return load - kLoad;
  };
  double low = 0, high = 1e-3, f_low = -kLoad, f_high = excess(high);
  while (f_high < 0) {
    low = high, f_low = f_high;
    high *= 1.6;
    if (high > 0.02) throw ComputationError("foot-tractions: the foot carries less than the load at 2 cm approach");
    f_high = excess(high);
  }
  while (f_low == -kLoad && high > 1e-5) {  // a better lower end than first touch
    const double middle = 0.6 * high, f_middle = excess(middle);
    if (f_middle < 0) {
      low = middle, f_low = f_middle;
    } else {
      high = middle, f_high = f_middle;
    }
  }
  std::uintmax_t iterations = 30;
  const auto [a, b] = boost::math::tools::toms748_solve(
      excess, low, high, f_low, f_high, [](double x, double y) { return std::abs(y - x) <= 5e-3 * std::max(x, y); },
      iterations);
  run.approach = 0.5 * (a + b);
}

FootRun run_foot(bool quick) {
  FootRun run;
  run.setup = variant(quick);
  run.foot.emplace(foot_body(run.setup.spacing), run.setup.clusters);
  run.ground.emplace(ground_body(run.setup.spacing), run.setup.clusters);
  find_approach(run);

  const auto start = std::chrono::steady_clock::now();
  run.contact = qr::resolve_multi_level(*run.foot, foot_pose(run.approach), *run.ground, RigidPose<double>(), 0.0,
                                        contact_options());
  run.contact_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const qr::QuasiRigidContact& solved = run.contact.levels.back();
  run.foot_traction = on_samples(run.foot->levels().back(), solved.a.active, solved.a.traction);
  run.foot_displacement = on_samples(run.foot->levels().back(), solved.a.displaced, solved.a.displaced_u);
  run.ground_traction = on_samples(run.ground->levels().back(), solved.b.active, solved.b.traction);

  // The load at the same approach on coarser samplings, then this one's.
  for (double spacing : run.setup.refinement) {
    run.refinement.emplace_back(spacing, qr::resolve_contact(foot_body(spacing), foot_pose(run.approach),
                                                             ground_body(spacing), RigidPose<double>(),
                                                             contact_options())
                                             .a.load);
  }
  run.refinement.emplace_back(run.setup.spacing, solved.a.load);

  // The mat: each ground sample's force p a in its cell, over the cell's area.
  const qr::QuasiRigidBody& fine_ground = run.ground->levels().back();
  const auto& ground_points = fine_ground.surface().samples().points;
  for (std::size_t k = 0; k < ground_points.size(); ++k) {
    const double p = run.ground_traction(static_cast<Eigen::Index>(k));
    if (!(p > 0)) continue;
    // The inverse of cell_x and cell_y: the ground's x is the foot frame's less kFootCentre.
    const auto along = static_cast<int>(std::floor(ground_points[k].x() / kCell + kMatLength / 2.0));
    const auto across = static_cast<int>(std::floor(ground_points[k].y() / kCell + kMatWidth / 2.0));
    if (along < 0 || along >= kMatLength || across < 0 || across >= kMatWidth) continue;
    run.mat[static_cast<std::size_t>(along)][static_cast<std::size_t>(across)] +=
        p * fine_ground.sampling().areas()(static_cast<Eigen::Index>(k)) / (kCell * kCell);
  }
  return run;
}

}  // namespace

SuiteResult foot_tractions_suite(const SuiteOptions& options) {
  SuiteResult result;
  result.name = "foot-tractions";
  const FootRun run = run_foot(options.quick);
  const qr::QuasiRigidContact& solved = run.contact.levels.back();
  const qr::QuasiRigidBody& fine_foot = run.foot->levels().back();
  const auto sample_count = static_cast<double>(fine_foot.surface().samples().points.size());

  result.add(information("samples", sample_count, kPaperSamples, "the foot's samples (paper: the scan's)"));
  result.add(information("approach_mm", run.approach * 1e3, std::nullopt,
                         fmt::format("the approach that carries {:.2f} N on the samples ({} load evaluations)",
                                     kLoad, run.load_evaluations)));
  result.add(timing("contact_ms", run.contact_seconds * 1e3, kPaperMilliseconds,
                         fmt::format("the multi-level contact at that approach, {} levels, with the near fields the "
                                     "root-find's solves computed (Section 3.2's precomputation; paper: three levels "
                                     "on a 2.8 GHz Pentium IV)",
                                     run.contact.levels.size())));
  result.add(timing("first_solve_ms", run.first_solve_seconds * 1e3, std::nullopt,
                         "the root-find's first solve on the samples alone (1 mm approach), computing every near field "
                         "it needs"));
  const auto displaced = static_cast<double>(solved.a.displaced.size());
  result.add(information("displaced_samples", displaced, kPaperDisplaced,
                         "foot samples within 5 sigma of a loaded one: the volume-preserving kernel's reach, where "
                         "the contact may displace a sample (a count of reach, not of samples measured to move; "
                         "the paper's 11,317 of 55,061 'displaced' is not defined further)"));
  result.add(information("displaced_fraction", displaced / sample_count, kPaperDisplaced / kPaperSamples,
                         "the displaced samples' share"));
  const auto finest = static_cast<double>(solved.a.active.size());
  result.add(information("lcp_products", run.contact.lcp_work() / (finest * finest), std::nullopt,
                         fmt::format("the LCPs' work on every level (entries of their matrices touched: products, "
                                     "copies, factorisations) in dense products of the finest level's order, {}: "
                                     "a cost no machine changes",
                                     solved.a.active.size())));
  for (std::size_t level = 0; level < run.contact.levels.size(); ++level) {
    const qr::QuasiRigidContact& c = run.contact.levels[level];
    const std::string at = fmt::format("level_{}", level);
    result.add(information(at + ".foot_samples",
                           static_cast<double>(run.foot->levels()[level].surface().samples().points.size()),
                           std::nullopt, run.foot->levels()[level].name()));
    result.add(information(at + ".foot_active", static_cast<double>(c.a.active.size()), std::nullopt,
                           "the foot's active samples (the LCP's size)"));
    result.add(information(at + ".ground_active", static_cast<double>(c.b.active.size()), std::nullopt,
                           "the ground's active samples"));
    result.add(information(at + ".foot_load", c.a.load, kLoad, "N"));
    result.add(information(at + ".pivots", c.a.pivots + c.b.pivots, std::nullopt,
                           "block-pivoting iterations of the LCPs (the foot's alone: the ground is rigid)"));
    if (level > 0) {
      result.add(information(at + ".wrench_change", run.contact.wrench_change[level - 1], std::nullopt,
                             "|dF| / |F| + |dT_c| / (|F| rho) from the level before, torques about its centre of pressure (Section 4.3's accuracy)"));
    }
  }

  // Convergence under refinement at the approach: the load's changes shrink
  // (a discretisation that converges), at an observed order; Richardson's
  // extrapolation of the last three gives the finest sampling's error.
  std::vector<double> spacings, changes;
  for (std::size_t k = 0; k < run.refinement.size(); ++k) {
    const auto [spacing, load] = run.refinement[k];
    result.add(information(fmt::format("load_at_spacing_{:.2f}mm", spacing * 1e3), load, std::nullopt,
                           "N: the foot's load at the approach above, sampled at this spacing (ground too)"));
    if (k > 0) {
      spacings.push_back(spacing);
      changes.push_back(std::abs(load - run.refinement[k - 1].second));
    }
  }
  bool shrinking = true;
  for (std::size_t k = 1; k < changes.size(); ++k) shrinking = shrinking && changes[k] < changes[k - 1];
  result.add(check("refinement_changes_shrink", changes.back(), changes.front(),
                   "N: each refinement changes the load less than the one before (a converging discretisation; a "
                   "response or gap error that does not shrink with the spacing fails it)",
                   shrinking));
  const std::size_t n = run.refinement.size();
  const double h1 = run.refinement[n - 3].first, h2 = run.refinement[n - 2].first, h3 = run.refinement[n - 1].first;
  const double w1 = run.refinement[n - 3].second, w2 = run.refinement[n - 2].second, w3 = run.refinement[n - 1].second;
  // W(h) = W0 + C h^k through the three points (k by bisection: the ratio of
  // the changes is monotone in k).
  const double ratio = (w1 - w2) / (w2 - w3);
  double low = 0.1, high = 6;
  for (int i = 0; i < 100; ++i) {
    const double k = 0.5 * (low + high);
    ((std::pow(h1, k) - std::pow(h2, k)) / (std::pow(h2, k) - std::pow(h3, k)) < ratio ? low : high) = k;
  }
  const double order = 0.5 * (low + high);
  const double extrapolated = w3 - (w2 - w3) * std::pow(h3, order) / (std::pow(h2, order) - std::pow(h3, order));
  result.add(information("load_observed_order", order, std::nullopt,
                         "the load's order of convergence in the spacing, from the three finest samplings"));
  result.add(information("load_extrapolated", extrapolated, std::nullopt,
                         "N: Richardson's extrapolation to zero spacing"));
  result.add(information("load_error_estimate", std::abs(w3 / extrapolated - 1), std::nullopt,
                         "the finest sampling's relative error in the load against the extrapolation"));

  // Equilibrium and complementarity.
  const double newton = (solved.a.force_w + solved.b.force_w).norm() / solved.a.force_w.norm();
  result.add(check("newton_third_law", newton, 0.0,
                   "|F_foot + F_ground| / |F_foot| <= 2%: the rigid ground's tractions, interpolated at its own "
                   "samples from the foot's (one LCP, Eq. 10 with R_B = 0), carry the same force (the "
                   "hertz-convergence suite's bound; nothing imposes it)",
                   newton <= 0.02));
  result.add(check("foot_load_change", solved.load_change.value_or(0.0), 0.0,
                   "<= 2% (load_tolerance): the last iteration changed the foot's load by at most this: settled",
                   solved.settled));
  const double foot_separation = solved.a.separation.minCoeff();
  result.add(check("foot_min_separation_over_approach", foot_separation / run.approach, 0.0,
                   ">= -1%: after the iterations the foot penetrates the ground by at most 1% of the approach",
                   foot_separation >= -0.01 * run.approach));
  result.add(information("ground_min_separation_over_approach", solved.b.separation.minCoeff() / run.approach, 0.0,
                         "the ground's smallest measured separation from the deformed foot's MLS surface"));
  double complementarity = 0;
  for (Eigen::Index k = 0; k < solved.a.traction.size(); ++k) {
    complementarity += solved.a.traction(k) * solved.a.area(k) * std::abs(solved.a.separation(k));
  }
  result.add(information("foot_complementarity_over_work", complementarity / (kLoad * run.approach), 0.0,
                         "sum p_i a_i |s_i| over W delta, with s the separations measured after the last iteration"));

  // Volume preservation (Eq. 3) and the bulge.
  const double volume = solved.a.displaced_volume / solved.a.displaced_absolute_volume;
  result.add(check("displaced_volume_over_absolute", volume, 0.0,
                   "|sum a u| <= 5% of sum a |u|: Eq. 3 (the Boussinesq kernel gives 100%; 0.8% on Fig. 4's cases)",
                   std::abs(volume) <= 0.05));
  result.add(information("bulge_mm", -run.foot_displacement.minCoeff() * 1e3, std::nullopt,
                         "the largest outward displacement (the bulge of Section 3.1.1)"));
  result.add(information("indentation_mm", run.foot_displacement.maxCoeff() * 1e3, std::nullopt,
                         "the largest inward displacement"));

  // Where the load goes: the centre of pressure, the contact area, the mat.
  double load_x = 0, load_y = 0, arch = 0, total = 0;
  const auto& points = fine_foot.surface().samples().points;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const double f = run.foot_traction(static_cast<Eigen::Index>(k)) * fine_foot.sampling().areas()(static_cast<Eigen::Index>(k));
    total += f;
    load_x += f * points[k].x();
    load_y += f * points[k].y();
    if (points[k].x() > 0.09 && points[k].x() < 0.15 && points[k].y() > 0.01) arch += f;
  }
  result.add(information("centre_of_pressure_x_mm", load_x / total * 1e3, std::nullopt,
                         "foot frame: from the heel's back towards the toes"));
  result.add(information("centre_of_pressure_y_mm", load_y / total * 1e3, std::nullopt, "foot frame: towards the big toe"));
  result.add(information("contact_area_cm2", solved.a.contact_area * 1e4, std::nullopt,
                         "the foot's loaded samples' nodal areas"));
  result.add(check("medial_arch_load_fraction", arch / total, 0.0,
                   "<= 1%: the medial arch is 15 mm above the ground, beyond any approach and bulge here",
                   arch / total <= 0.01));
  std::size_t peak_along = 0, peak_across = 0;
  double mat_force = 0;
  for (std::size_t i = 0; i < kMatLength; ++i) {
    for (std::size_t j = 0; j < kMatWidth; ++j) {
      mat_force += run.mat[i][j] * kCell * kCell;
      if (run.mat[i][j] > run.mat[peak_along][peak_across]) peak_along = i, peak_across = j;
    }
  }
  const double peak_x = cell_x(peak_along);
  const bool heel = peak_x < 0.09, ball = peak_x > 0.15 && peak_x < 0.215;
  result.add(check("mat_peak_x_mm", peak_x * 1e3, std::nullopt,
                   "the mat's highest cell lies under the heel (x < 90 mm) or the ball (150-215 mm): the foot's "
                   "lowest points, as on a real pressure mat (notes A.3.2 item 8)",
                   heel || ball));
  result.add(information("mat_peak_kPa", run.mat[peak_along][peak_across] * 1e-3, std::nullopt,
                         "the highest cell's pressure"));
  result.add(information("mat_force_over_ground_load", mat_force / solved.b.load, 1.0,
                         "the mat's force over the ground's load (below 1 where the contact leaves the mat)"));
  return result;
}

void write_foot_tractions_data(const std::filesystem::path& dir) {
  const FootRun run = run_foot(false);
  std::ofstream levels(dir / "levels.csv"), foot(dir / "foot.csv"), ground(dir / "ground.csv"), mat(dir / "mat.csv");
  levels << "level,x,y,z\n";
  for (std::size_t level = 0; level < run.foot->levels().size(); ++level) {
    for (const Eigen::Vector3d& x : run.foot->levels()[level].surface().samples().points) {
      levels << fmt::format("{},{:.6g},{:.6g},{:.6g}\n", level, x.x(), x.y(), x.z());
    }
  }
  // The foot and the ground in the foot's frame (m), u (m, inward) and p (Pa).
  const auto& foot_samples = run.foot->levels().back().surface().samples().points;
  foot << "x,y,z,u,p\n";
  for (std::size_t k = 0; k < foot_samples.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    foot << fmt::format("{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", foot_samples[k].x(), foot_samples[k].y(),
                        foot_samples[k].z(), run.foot_displacement(i), run.foot_traction(i));
  }
  const auto& ground_samples = run.ground->levels().back().surface().samples().points;
  ground << "x,y,p\n";
  for (std::size_t k = 0; k < ground_samples.size(); ++k) {
    const double x = ground_samples[k].x() + kFootCentre, y = ground_samples[k].y();
    if (x < -0.01 || x > 0.28 || std::abs(y) > 0.07) continue;
    ground << fmt::format("{:.6g},{:.6g},{:.6g}\n", x, y, run.ground_traction(static_cast<Eigen::Index>(k)));
  }
  // Each cell's index, its centre in the foot frame (m) and its pressure (Pa).
  mat << "along,across,x,y,pressure\n";
  for (std::size_t i = 0; i < kMatLength; ++i) {
    for (std::size_t j = 0; j < kMatWidth; ++j) {
      mat << fmt::format("{},{},{:.6g},{:.6g},{:.6g}\n", i, j, cell_x(i), cell_y(j), run.mat[i][j]);
    }
  }
  if (!levels || !foot || !ground || !mat) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
