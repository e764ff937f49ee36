#pragma once
// `contactref quasi-rigid contact A B [--pose-b tx,ty,tz,rx,ry,rz] [--E E --nu NU]
//     [--E-b E --nu-b NU] [--kernel boussinesq|volume-preserving --sigma S]
//     [--iterations N] [--active-range K] [--operator exact|fft [--grid-spacing H]]
//     [--json]`:
// the contact of two quasi-rigid point-sampled bodies (reference/quasi_rigid/
// point_contact.hpp): A and B are point clouds with normals (XYZ with six
// columns, or PLY with nx ny nz), B posed in A's frame (translation in m, then
// a rotation vector in rad). Prints each body's active and penetrating
// samples, load, contact area and wrench (A's frame; the torque about each
// body's own origin), the iterations' residuals and the solver statistics;
// --json adds every active sample (index, position, gap, traction,
// displacement, separation, area). SI units. --operator fft replaces the
// sampled response beside a rigid body by the FFT half-space operator on a
// grid of side H in the contact plane (point_contact.hpp ResponseOperator:
// beyond the paper; H 0 or not given: a cell per sample).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace contactref::cli {

struct QuasiRigidContactCommandOptions {
  std::string a, b, pose_b, kernel = "boussinesq", response_operator = "exact";
  double E = 1e6, nu = 0.45;          // both bodies, unless B's is given
  std::optional<double> E_b, nu_b;    // not given: as A's
  std::optional<double> sigma;        // the volume-preserving kernel's only
  std::optional<double> grid_spacing;  // the FFT operator's only
  int iterations = 3;
  double active_range = 3;
  bool json = false;
};

// Adds the subcommand to `quasi-rigid`; run_quasi_rigid_contact runs it.
CLI::App* add_quasi_rigid_contact(CLI::App& quasi_rigid, QuasiRigidContactCommandOptions& options);
int run_quasi_rigid_contact(const QuasiRigidContactCommandOptions& options);

}  // namespace contactref::cli
