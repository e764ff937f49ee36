#include "validation/suites/torque_free_body.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fstream>

#include "reference/spatial/free_body.hpp"
#include "validation/oracles/torque_free_euler.hpp"

namespace contactref::validation {
namespace {

namespace sp = contactref::spatial;

// The body. Principal moments 2, 3, 4 kg m^2 (triangle inequality holds), mass
// 2 kg. Body axes are deliberately not principal: they are the principal axes
// rotated by R_b_p, so the solver sees a full inertia matrix.
const Vec3<double> kPrincipalMoments(2.0, 3.0, 4.0);
constexpr double kMass = 2.0;
// Near the intermediate axis: the angular velocity flips sign every half period.
const Vec3<double> kOmega0Principal(0.1, 2.0, 0.1);  // rad/s

Mat3<double> body_from_principal() { return sp::so3_exp(Vec3<double>(0.3, -0.5, 0.2)); }

// The order checks decide between integer orders (a Runge-Kutta method's
// order is an integer; a wrong RK4 coefficient gives order 3 or less): the
// bound is the midpoint between RK4's 4 and its neighbours, which leaves half
// an order for pre-asymptotic effects.
constexpr const char* kOrderWindow =
    "3.5 <= order <= 4.5: RK4's order 4 within half an order, the midpoint to orders 3 and 5 (a wrong RK4 "
    "coefficient gives order <= 3)";
constexpr const char* kInvariantOrder =
    "order >= 3.5: an invariant's drift converges at least at RK4's order 4 (faster is allowed); 3.5 is the "
    "midpoint to order 3 (least squares over every step)";

TorqueFreeRun integrate(const oracles::TorqueFreeEulerSolution<double>& exact, const sp::RigidBodyInertia<double>& body,
                        double duration, int steps_per_period, double period,
                        std::vector<std::array<double, 7>>* samples) {
  const Mat3<double> R_b_p = body_from_principal();
  const sp::FreeBodyState<double> y0 = sp::make_free_body_state<double>(
      Vec4<double>(std::cos(0.35), std::sin(0.35) * 0.6, std::sin(0.35) * 0.0, std::sin(0.35) * 0.8),
      Vec3<double>(0.1, -0.2, 0.3), (Vec6<double>() << R_b_p * kOmega0Principal, 0.3, 0.1, -0.2).finished());
  sp::check_free_body_state(y0);

  const auto zero_wrench = [](double, const sp::FreeBodyState<double>&) { return Vec6<double>::Zero().eval(); };
  const double E0 = sp::kinetic_energy(body.M_b, sp::twist_of(y0));
  const Vec3<double> L0 = sp::spatial_momentum(sp::pose_of(y0), body.M_b, sp::twist_of(y0)).head<3>();
  const double omega_scale = kOmega0Principal.norm();

  TorqueFreeRun run;
  run.steps_per_period = steps_per_period;
  run.h = period / steps_per_period;
  const long steps = std::lround(duration / run.h);
  sp::FreeBodyState<double> y = y0;
  for (long n = 1; n <= steps; ++n) {
    y = sp::free_body_rk4_step(body, double(n - 1) * run.h, y, run.h, zero_wrench);
    const double t = double(n) * run.h;
    const Vec3<double> omega_p = R_b_p.transpose() * sp::twist_of(y).head<3>();
    const Vec3<double> omega_exact = exact.omega(t);
    const Vec3<double> L = sp::spatial_momentum(sp::pose_of(y), body.M_b, sp::twist_of(y)).head<3>();
    run.max_omega_error = std::max(run.max_omega_error, (omega_p - omega_exact).norm() / omega_scale);
    run.max_energy_drift =
        std::max(run.max_energy_drift, std::abs(sp::kinetic_energy(body.M_b, sp::twist_of(y)) - E0) / E0);
    run.max_momentum_drift = std::max(run.max_momentum_drift, (L - L0).norm() / L0.norm());
    if (samples) {
      samples->push_back({t, omega_p.x(), omega_p.y(), omega_p.z(), omega_exact.x(), omega_exact.y(),
                          omega_exact.z()});
    }
  }
  return run;
}

}  // namespace

TorqueFreeStudy run_torque_free_study(bool quick) {
  const Mat3<double> R_b_p = body_from_principal();
  const Mat3<double> I_b = R_b_p * kPrincipalMoments.asDiagonal() * R_b_p.transpose();
  const sp::RigidBodyInertia<double> body(kMass, I_b);
  const oracles::TorqueFreeEulerSolution<double> exact(kPrincipalMoments, kOmega0Principal);

  TorqueFreeStudy study;
  study.period = exact.period();
  study.modulus = exact.modulus();
  study.duration = (quick ? 2 : 10) * study.period;
  const std::vector<int> steps_per_period = quick ? std::vector<int>{100, 200, 400}
                                                  : std::vector<int>{100, 200, 400, 800};
  for (int n : steps_per_period) {
    const bool finest = n == steps_per_period.back();
    study.runs.push_back(integrate(exact, body, study.duration, n, study.period,
                                   finest ? &study.finest_omega : nullptr));
  }
  return study;
}

SuiteResult torque_free_body_suite(const SuiteOptions& options) {
  const TorqueFreeStudy study = run_torque_free_study(options.quick);
  SuiteResult result;
  result.name = "torque-free-body";
  result.add(information("period_s", study.period, std::nullopt, "period of the angular velocity"));
  result.add(information("elliptic_modulus", study.modulus, std::nullopt, "k close to 1 near the separatrix"));
  result.add(information("periods_integrated", study.duration / study.period, std::nullopt,
                         "the duration of every run, in periods"));

  std::vector<double> h, omega_error, energy_drift, momentum_drift;
  for (const TorqueFreeRun& run : study.runs) {
    h.push_back(run.h);
    omega_error.push_back(run.max_omega_error);
    energy_drift.push_back(run.max_energy_drift);
    momentum_drift.push_back(run.max_momentum_drift);
    result.add(information(fmt::format("omega_error[h=T/{}]", run.steps_per_period), run.max_omega_error,
                           std::nullopt, "max_t |w - w_exact| / |w(0)|"));
  }
  const double order = observed_order(h, omega_error);
  result.add(check("convergence_order", order, 4.0, std::string(kOrderWindow) + " (least squares over every step)",
                   order >= 3.5 && order <= 4.5));
  // Both invariants drift at least at the method's order. The momentum drift
  // is larger than the energy drift: it follows the attitude error, which is
  // the time integral of the angular-velocity error and so grows secularly.
  const double energy_order = observed_order(h, energy_drift);
  result.add(check("energy_drift_order", energy_order, 4.0, kInvariantOrder, energy_order >= 3.5));
  const double momentum_order = observed_order(h, momentum_drift);
  result.add(check("angular_momentum_drift_order", momentum_order, 4.0, kInvariantOrder, momentum_order >= 3.5));
  const TorqueFreeRun& finest = study.runs.back();
  result.add(information("energy_drift_finest", finest.max_energy_drift, std::nullopt,
                         "max_t |E - E0| / E0 at the finest step"));
  result.add(information("angular_momentum_drift_finest", finest.max_momentum_drift, std::nullopt,
                         "max_t |L_w - L_w(0)| / |L_w(0)| at the finest step (world frame, about the origin)"));
  return result;
}

void write_torque_free_figure_data(const std::filesystem::path& dir) {
  const TorqueFreeStudy study = run_torque_free_study(false);
  std::ofstream convergence(dir / "convergence.csv");
  convergence << "steps_per_period,h,omega_error,energy_drift,momentum_drift\n";
  for (const TorqueFreeRun& run : study.runs) {
    convergence << fmt::format("{},{:.17g},{:.17g},{:.17g},{:.17g}\n", run.steps_per_period, run.h,
                               run.max_omega_error, run.max_energy_drift, run.max_momentum_drift);
  }
  std::ofstream omega(dir / "omega.csv");
  omega << "t,omega_1,omega_2,omega_3,exact_1,exact_2,exact_3\n";
  for (const auto& row : study.finest_omega) {
    omega << fmt::format("{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", row[0], row[1], row[2], row[3],
                         row[4], row[5], row[6]);
  }
  if (!convergence || !omega) throw std::runtime_error("cannot write the figure data in " + dir.string());
}

}  // namespace contactref::validation
