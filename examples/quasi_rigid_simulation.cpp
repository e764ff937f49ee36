// Quasi-rigid dynamics (Pauly, Pai & Guibas Section 5; reference/quasi_rigid/
// quasi_rigid_dynamics.hpp): a rubber-like ball (radius 5 cm, 1000 kg/m^3,
// E = 1 MPa, Poisson-disk samples 5 mm apart) sliding at 1 m/s without spin on
// a rigid floor sampled from a square 8 mm apart, with Coulomb friction mu = 0.5
// (Section 5.1). A rigid ball would slide for 2 v0 / (7 mu g) = 58 ms and then
// roll at 5/7 v0 (its angular momentum about the contact point is conserved).
// Checks: the run completes, the final speed is 5/7 v0 within 3% (the
// contact's compliance and sampling), it rolls (slip below 1% of the speed),
// and friction's total work is negative. Exit 1 if one fails. (Beside the
// rigid floor only the ball's samples solve the contact: at 8 mm, two or three
// of them within Hertz's 5.5 mm contact radius, it ends slipping by 1.7% of
// its speed.)
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/mesh_io.hpp"
#include "reference/quasi_rigid/point_samples.hpp"
#include "reference/quasi_rigid/quasi_rigid_dynamics.hpp"

namespace qr = contactref::quasi_rigid;

int main() {
  const double R = 0.05, density = 1000, spacing = 0.005, floor_spacing = 0.008, v0 = 1;
  const double mass = 4.0 / 3 * std::numbers::pi * R * R * R * density;
  qr::DynamicBody ball{qr::QuasiRigidBody(qr::sample_sphere(Eigen::Vector3d::Zero(), R, spacing), {1e6, 0.3}),
                       false, {mass, 0.4 * mass * R * R * Eigen::Matrix3d::Identity()}, {}};
  double lowest = 0;
  for (const Eigen::Vector3d& p : ball.body.surface().samples().points) lowest = std::min(lowest, p.z());
  ball.state.x_w = {0, 0, -lowest};  // touching the floor
  ball.state.v_w = {v0, 0, 0};
  const qr::DynamicBody floor{
      qr::QuasiRigidBody(qr::sample_mesh(contactref::polygon_soup("floor",
                                                                  {{-0.2, -0.2, 0}, {0.3, -0.2, 0}, {0.3, 0.2, 0}, {-0.2, 0.2, 0}},
                                                                  {{0, 1, 2, 3}}),
                                         floor_spacing),
                         {0, 0}),  // E = 0: rigid
      true, {}, {}};
  qr::DynamicsOptions options;
  options.duration = 0.08;
  options.mu = 0.5;
  options.contact.active_range = 1.5;
  const qr::DynamicsResult result = qr::simulate_quasi_rigid({ball, floor}, options);

  const qr::BodyState& end = result.final_states[0];
  const double v = end.v_w.x(), slip = v - end.omega_w.y() * end.x_w.z();
  std::printf("%s after %d contact and %d flight steps; v = %.5g m/s (5/7 v0 = %.5g), slip %.3g m/s, friction's "
              "work %.4g J\n",
              qr::to_string(result.status), result.contact_steps, result.flight_steps, v, 5.0 / 7 * v0, slip,
              result.friction_work);
  const bool ok = result.status == qr::RunStatus::kCompleted && std::abs(v - 5.0 / 7 * v0) <= 0.03 * 5.0 / 7 * v0 &&
                  std::abs(slip) <= 0.01 * std::abs(v) && result.friction_work < 0;
  return ok ? 0 : 1;
}
