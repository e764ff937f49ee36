#pragma once
// Suite `torque-free-body`: an asymmetric free rigid body, started near its
// intermediate principal axis so that it flips (the Dzhanibekov effect),
// integrated with RK4 (reference/spatial/free_body.hpp) at several step sizes
// and compared with the closed form in Jacobi elliptic functions
// (validation/oracles/torque_free_euler.hpp).
#include <array>
#include <vector>

#include "validation/registry.hpp"

namespace contactref::validation {

// One integration at step h = period / steps_per_period.
struct TorqueFreeRun {
  int steps_per_period = 0;
  double h = 0;                     // s
  double max_omega_error = 0;       // max_t |w - w_exact| / |w(0)|
  double max_energy_drift = 0;      // max_t |E - E0| / E0
  double max_momentum_drift = 0;    // max_t |L_w - L_w(0)| / |L_w(0)|, angular momentum about the world origin
};

struct TorqueFreeStudy {
  double period = 0;   // s, of the angular velocity
  double modulus = 0;  // elliptic modulus k of the motion
  double duration = 0;
  std::vector<TorqueFreeRun> runs;  // coarsest step first
  // At the finest step, every sample: t, computed w (3), exact w (3), principal axes.
  std::vector<std::array<double, 7>> finest_omega;
};

// quick: 2 periods and three step sizes instead of 10 periods and four.
TorqueFreeStudy run_torque_free_study(bool quick);

SuiteResult torque_free_body_suite(const SuiteOptions& options);

// Figure `torque-free-convergence`: writes convergence.csv (error against step)
// and omega.csv (the exact and computed angular velocity at the finest step).
void write_torque_free_figure_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
