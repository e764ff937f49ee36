// Quasi-rigid dynamics (Pauly et al. Section 5; reference/quasi_rigid/
// quasi_rigid_dynamics.hpp), the cost of one contact step of the tests' ball
// (R = 5 cm, E = 1 MPa, 1000 kg/m^3) pressed 0.6 mm (Hertz's approach at its
// weight) into a rigid lattice plane, both sampled `spacing` apart:
//  - BM_ContactStep/spacing_um: resolve_contact (detection, the ball's LCP,
//    three iterations) and the contact impulses with friction;
//  - BM_ContactImpulses/spacing_um: the impulses alone, on a solved contact.
// Counter: the active samples of both bodies.
#include <benchmark/benchmark.h>

#include "reference/quasi_rigid/contact_impulses.hpp"
#include "validation/fixtures/quasi_rigid_ball.hpp"

namespace {

namespace qr = contactref::quasi_rigid;

struct Pressed {
  qr::DynamicBody ball, plane;
  qr::ContactOptions options;
  explicit Pressed(double spacing)
      : ball(contactref::fixtures::sampled_ball({0.05, spacing, 1000, {1e6, 0.3}, 16}, Eigen::Vector3d::Zero())),
        plane(contactref::fixtures::sampled_plane(spacing, 0.1, contactref::RigidPose<double>())) {
    double lowest = 0;
    for (const Eigen::Vector3d& p : ball.body.surface().samples().points) lowest = std::min(lowest, p.z());
    ball.state.x_w = {0, 0, -lowest - 6e-4};
    ball.state.v_w = {0.3, 0, 0};
    options.active_range = 1.5;
  }
  qr::QuasiRigidContact solve() const {
    return qr::resolve_contact(ball.body, ball.state.E_w_b(), plane.body, plane.state.E_w_b(), options);
  }
  // The impulses of a 0.1 ms step with mu = 0.5 on copies of the states.
  double impulses(const qr::QuasiRigidContact& contact) const {
    qr::BodyState ball_state = ball.state, plane_state = plane.state;
    return qr::apply_contact_impulses(contact, {&ball.body, &ball.mass, &ball_state}, {&plane.body, nullptr, &plane_state},
                                      0.5, 0, 1e-4)
        .load;
  }
};

void BM_ContactStep(benchmark::State& state) {
  const Pressed pressed(1e-6 * static_cast<double>(state.range(0)));
  qr::QuasiRigidContact contact;
  for (auto _ : state) {
    contact = pressed.solve();
    benchmark::DoNotOptimize(pressed.impulses(contact));
  }
  state.counters["active"] = static_cast<double>(contact.a.active.size() + contact.b.active.size());
}
BENCHMARK(BM_ContactStep)->Arg(8000)->Arg(5000)->Unit(benchmark::kMillisecond);

void BM_ContactImpulses(benchmark::State& state) {
  const Pressed pressed(1e-6 * static_cast<double>(state.range(0)));
  const qr::QuasiRigidContact contact = pressed.solve();
  for (auto _ : state) benchmark::DoNotOptimize(pressed.impulses(contact));
  state.counters["active"] = static_cast<double>(contact.a.active.size() + contact.b.active.size());
}
BENCHMARK(BM_ContactImpulses)->Arg(8000)->Arg(5000)->Unit(benchmark::kMicrosecond);

}  // namespace
