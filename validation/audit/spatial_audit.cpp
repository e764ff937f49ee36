#include "validation/audit/spatial_audit.hpp"

#include "reference/spatial/free_body.hpp"
#include "validation/audit/precision_comparison.hpp"

namespace contactref::audit {
namespace {

namespace sp = contactref::spatial;
using fixtures::Rng;

constexpr int kSpatialSamples = 200;

auto pose_and_twist = [](Rng& rng) {
  return std::make_tuple(fixtures::random_pose(rng), fixtures::random_twist(rng));
};

template <class Op, class Draw = decltype(pose_and_twist)>
validation::AuditEntrySpec entry(std::string name, std::string summary, std::uint64_t seed, Op op,
                                 Draw draw = pose_and_twist) {
  return {std::move(name), std::move(summary),
          [seed, op, draw] { return compare_double_with_50_digits(kSpatialSamples, seed, draw, op); }};
}

}  // namespace

std::vector<validation::AuditEntrySpec> spatial_audit_entries() {
  std::vector<validation::AuditEntrySpec> entries;
  entries.push_back(entry("spatial.se3_exp", "exp(O(phi)), closed form", 101,
                          [](const auto&, const auto& phi) { return sp::se3_exp(phi); }));
  entries.push_back(entry("spatial.pose_inverse", "E^-1 in closed form", 102,
                          [](const auto& E, const auto&) { return sp::pose_inverse(E); }));
  entries.push_back(entry("spatial.adjoint_twist", "Ad_j_i phi_i", 103,
                          [](const auto& E, const auto& phi) { return (sp::adjoint(E) * phi).eval(); }));
  entries.push_back(entry("spatial.transform_twist", "Ad_j_i phi_i without forming Ad", 111,
                          [](const auto& E, const auto& phi) { return sp::transform_twist(E, phi); }));
  entries.push_back(entry("spatial.adjoint_inverse_twist", "Ad_j_i^-1 phi_j", 104,
                          [](const auto& E, const auto& phi) { return (sp::adjoint_inverse(E) * phi).eval(); }));
  entries.push_back(entry("spatial.wrench_adjoint", "Ad_j_i^-T f_i", 105,
                          [](const auto& E, const auto& f) { return (sp::wrench_adjoint(E) * f).eval(); }));
  entries.push_back(entry("spatial.adjoint_derivative", "d/dt Ad for dE = E O(phi)", 106,
                          [](const auto& E, const auto& phi) {
                            return sp::adjoint_derivative(E, (E * sp::hat(phi)).eval());
                          }));
  entries.push_back(entry("spatial.cross", "[phi] psi with psi = Ad phi", 107, [](const auto& E, const auto& phi) {
    return (sp::spatial_cross(phi) * (sp::adjoint(E) * phi)).eval();
  }));
  entries.push_back(entry("spatial.cross_dual", "[phi]* f with f = Ad^-T phi", 108, [](const auto& E, const auto& phi) {
    return (sp::spatial_cross_dual(phi) * (sp::wrench_adjoint(E) * phi)).eval();
  }));
  entries.push_back(entry(
      "spatial.inertia_transform", "M_j = Ad_c_j^T M_c Ad_c_j for a random box", 109,
      [](const auto& E, const auto& m, const auto& I) {
        return sp::transform_inertia(E, sp::spatial_inertia_at_com(m, I));
      },
      [](Rng& rng) {
        const auto [m, I] = fixtures::random_inertia(rng);
        return std::make_tuple(fixtures::random_pose(rng), m, I);
      }));
  entries.push_back(entry(
      "spatial.newton_euler_derivative",
      "free-body state derivative (Eq. 15 solved for dphi) for a random box, state and wrench", 110,
      [](const auto& m, const auto& I, const auto& y, const auto& f) {
        using T = std::decay_t<decltype(m)>;
        const sp::RigidBodyInertia<T> body(m, I);
        return sp::free_body_derivative<T>(body, y, f);
      },
      [](Rng& rng) {
        const auto [m, I] = fixtures::random_inertia(rng);
        const sp::FreeBodyState<double> y = sp::make_free_body_state<double>(
            fixtures::random_unit_quaternion(rng), fixtures::random_vector3(rng), fixtures::random_twist(rng, 3.0));
        return std::make_tuple(m, I, y, fixtures::random_twist(rng, 10.0));
      }));
  return entries;
}

}  // namespace contactref::audit
