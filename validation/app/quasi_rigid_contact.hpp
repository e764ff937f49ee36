#pragma once
// `contactref quasi-rigid contact A B [--pose-b tx,ty,tz,rx,ry,rz] [--E E --nu NU]
//     [--E-b E --nu-b NU] [--kernel boussinesq|volume-preserving --sigma S]
//     [--iterations N] [--active-range K] [--json]`:
// the contact of two quasi-rigid point-sampled bodies (reference/quasi_rigid/
// point_contact.hpp): A and B are point clouds with normals (XYZ with six
// columns, or PLY with nx ny nz), B posed in A's frame (translation in m, then
// a rotation vector in rad). Prints each body's active and penetrating
// samples, load, contact area and wrench (A's frame; the torque about each
// body's own origin), the iterations' residuals and the solver statistics;
// --json adds every active sample (index, position, gap, traction,
// displacement, separation, area). SI units.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace contactref::cli {

struct QuasiRigidContactCommandOptions {
  std::string a, b, pose_b, kernel = "boussinesq";
  double E = 1e6, nu = 0.45;          // both bodies, unless B's is given
  std::optional<double> E_b, nu_b;    // not given: as A's
  std::optional<double> sigma;        // the volume-preserving kernel's only
  int iterations = 3;
  double active_range = 3;
  bool json = false;
};

// Adds the subcommand to `quasi-rigid`; run_quasi_rigid_contact runs it.
CLI::App* add_quasi_rigid_contact(CLI::App& quasi_rigid, QuasiRigidContactCommandOptions& options);
int run_quasi_rigid_contact(const QuasiRigidContactCommandOptions& options);

}  // namespace contactref::cli
