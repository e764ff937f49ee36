// Quasi-rigid contact (Pauly, Pai & Guibas; reference/quasi_rigid): a
// point-sampled elastic ball (radius 5 cm, E = 10 MPa, nu = 0.45, Poisson-disk
// samples 1 mm apart) pressed 0.5 mm into a rigid floor sampled from a
// two-triangle mesh: one LCP, on the ball (Eq. 10 with R_B = 0), three
// iterations, the floor's tractions interpolated from the ball's.
// Checks (Hertz, Johnson ch. 4, with a Boussinesq half-space): the ball's and
// the floor's loads are 4/3 E* sqrt(R) delta^(3/2) within 3%, the two forces
// cancel within 2% (Newton's third law, which the interpolation does not
// impose), and the ball's force points up. Exit 1 if one fails.
#include <cmath>
#include <cstdio>

#include "core/mesh_io.hpp"
#include "reference/quasi_rigid/point_contact.hpp"
#include "reference/quasi_rigid/point_samples.hpp"

namespace {

namespace qr = contactref::quasi_rigid;

bool within(const char* what, double value, double reference, double tolerance) {
  const bool ok = std::abs(value - reference) <= tolerance * std::abs(reference);
  std::printf("  %-28s %12.6g  (reference %.6g, within %g%%: %s)\n", what, value, reference, 100 * tolerance,
              ok ? "yes" : "NO");
  return ok;
}

}  // namespace

int main() {
  const double R = 0.05, E = 1e7, nu = 0.45, approach = 5e-4, spacing = 1e-3;
  const qr::QuasiRigidBody ball(qr::sample_sphere(Eigen::Vector3d(0, 0, R), R, spacing), {E, nu});
  const qr::QuasiRigidBody floor(
      qr::sample_mesh(contactref::polygon_soup("floor", {{-0.02, -0.02, 0}, {0.02, -0.02, 0}, {0.02, 0.02, 0}, {-0.02, 0.02, 0}},
                                               {{0, 1, 2, 3}}),
                      spacing),
      {0, 0});  // E = 0: rigid
  const auto E_w_ball = contactref::RigidPose<double>::from_translation({0, 0, -approach});
  const qr::QuasiRigidContact contact = qr::resolve_contact(ball, E_w_ball, floor, contactref::RigidPose<double>());

  std::printf("ball: %zu samples, %zu active; floor: %zu samples, %zu active\n",
              ball.surface().samples().points.size(), contact.a.active.size(),
              floor.surface().samples().points.size(), contact.b.active.size());
  const double hertz = 4.0 / 3 * E / (1 - nu * nu) * std::sqrt(R) * std::pow(approach, 1.5);
  bool ok = within("ball load (N)", contact.a.load, hertz, 0.03);
  ok = within("floor load (N)", contact.b.load, hertz, 0.03) && ok;
  const double newton = (contact.a.force_w + contact.b.force_w).norm() / hertz;
  std::printf("  %-28s %12.6g  (at most 0.02: %s)\n", "|F_ball + F_floor| / W", newton, newton <= 0.02 ? "yes" : "NO");
  ok = newton <= 0.02 && contact.a.force_w.z() > 0 && ok;
  return ok ? 0 : 1;
}
