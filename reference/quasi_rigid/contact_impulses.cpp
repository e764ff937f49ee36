#include "reference/quasi_rigid/contact_impulses.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <vector>

namespace contactref::quasi_rigid {
namespace {

// A loaded sample as the impulses read it: where it pushes, the direction of
// its force on A (-n_i on A's samples, +n_i on B's) and the share of its
// normal force that pushes (N).
struct PushingSample {
  Eigen::Vector3d x_w;
  Eigen::Vector3d nu_w;
  double f_n = 0;
};

void collect(const QuasiRigidBody& body, const BodyState& state, const BodyContact& side, int side_index,
             double share, std::vector<LoadedSample>& out) {
  const SurfaceSamples& samples = body.surface().samples();
  const RigidPose<double> E_w_x = state.E_w_b();
  const Eigen::Matrix3d Theta_w_x = E_w_x.rotation();
  for (std::size_t k = 0; k < side.active.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    if (!(side.traction(i) > 0)) continue;
    const auto s = static_cast<std::size_t>(side.active[k]);
    const Eigen::Vector3d x_b = samples.points[s] - side.displacement(i) * samples.normals[s];
    out.push_back({side_index, side.active[k], E_w_x * x_b, Theta_w_x * samples.normals[s], side.traction(i),
                   side.area(i), share});
  }
}

Eigen::Vector3d velocity_at(const ContactParty& party, const Eigen::Vector3d& x_w) {
  return party.mass == nullptr ? Eigen::Vector3d::Zero() : party.state->point_velocity(x_w);
}

double kinetic_energy(const ContactParty& a, const ContactParty& b) {
  double K = 0;
  for (const ContactParty* p : {&a, &b})
    if (p->mass != nullptr) K += p->mass->kinetic_energy(*p->state);
  return K;
}

// The sum of impulses J_i at x_i on A (and -J_i on B): per party, the
// linear impulse and the angular one about its centre of mass.
struct PartyImpulse {
  Eigen::Vector3d J_w = Eigen::Vector3d::Zero();
  Eigen::Vector3d H_w = Eigen::Vector3d::Zero();
};

void add(const ContactParty& party, double sign, const Eigen::Vector3d& x_w, const Eigen::Vector3d& J_w,
         PartyImpulse& sum) {
  if (party.mass == nullptr) return;
  sum.J_w += sign * J_w;
  sum.H_w += (x_w - party.state->x_w).cross(sign * J_w);
}

void apply(const ContactParty& party, const PartyImpulse& impulse, double scale) {
  if (party.mass != nullptr) apply_impulse(*party.mass, scale * impulse.J_w, scale * impulse.H_w, *party.state);
}

// a = dK/ds and b = d^2K/ds^2 of the kinetic energy along the impulse.
void energy_slope(const ContactParty& party, const PartyImpulse& impulse, double& a, double& b) {
  if (party.mass == nullptr) return;
  const Eigen::Matrix3d I_w = party.mass->I_w(*party.state);
  const Eigen::Vector3d dv_w = impulse.J_w / party.mass->mass;
  const Eigen::Vector3d domega_w = I_w.inverse() * impulse.H_w;
  a += party.mass->mass * party.state->v_w.dot(dv_w) + party.state->omega_w.dot(I_w * domega_w);
  b += party.mass->mass * dv_w.squaredNorm() + domega_w.dot(I_w * domega_w);
}

// The share of a side's forces that pushes: halves of both sides; beside a
// rigid body, the side that solved the one LCP, whole (the other's tractions
// are interpolated from it).
double share(const BodyContact& side, const BodyContact& other) {
  return side.interpolated ? 0.0 : (other.interpolated ? 1.0 : 0.5);
}

}  // namespace

std::vector<LoadedSample> loaded_samples(const QuasiRigidContact& contact, const BodyState& a, const QuasiRigidBody& body_a,
                                         const BodyState& b, const QuasiRigidBody& body_b) {
  std::vector<LoadedSample> out;
  collect(body_a, a, contact.a, 0, share(contact.a, contact.b), out);
  collect(body_b, b, contact.b, 1, share(contact.b, contact.a), out);
  return out;
}

Eigen::Vector3d normal_force_on_a(const QuasiRigidContact& contact) {
  return share(contact.a, contact.b) * contact.a.force_w - share(contact.b, contact.a) * contact.b.force_w;
}

ContactImpulses apply_contact_impulses(const QuasiRigidContact& contact, const ContactParty& a, const ContactParty& b,
                                       double mu, double damping, double dt, DampingRate rate) {
  ContactImpulses out;
  out.samples = loaded_samples(contact, *a.state, *a.body, *b.state, *b.body);
  std::vector<PushingSample> loaded;
  for (const LoadedSample& sample : out.samples) {
    if (sample.share > 0)
      loaded.push_back({sample.x_w, (sample.side == 0 ? -1.0 : 1.0) * sample.n_w, sample.share * sample.traction * sample.area});
  }
  out.loaded = static_cast<int>(loaded.size());

  // Normal impulses: f_i max(0, 1 - d rate_i) dt nu_i, with the rates read
  // before the impulses (kBefore) or after their elastic part (kAfterElastic).
  const double K0 = kinetic_energy(a, b);
  const auto damping_factors = [&] {
    std::vector<double> factor(loaded.size());
    for (std::size_t i = 0; i < loaded.size(); ++i) {
      const double rate_i = (velocity_at(a, loaded[i].x_w) - velocity_at(b, loaded[i].x_w)).dot(loaded[i].nu_w);
      factor[i] = std::max(0.0, 1 - damping * rate_i);
    }
    return factor;
  };
  // Applies sum_i scale_i f_i dt nu_i on A (and its opposite on B).
  const auto push = [&](const std::vector<double>& scale) {
    PartyImpulse on_a, on_b;
    for (std::size_t i = 0; i < loaded.size(); ++i) {
      add(a, +1, loaded[i].x_w, scale[i] * loaded[i].f_n * dt * loaded[i].nu_w, on_a);
      add(b, -1, loaded[i].x_w, scale[i] * loaded[i].f_n * dt * loaded[i].nu_w, on_b);
    }
    apply(a, on_a, 1);
    apply(b, on_b, 1);
  };
  std::vector<double> factor = rate == DampingRate::kBefore ? damping_factors() : std::vector<double>(loaded.size(), 1);
  push(factor);
  if (rate == DampingRate::kAfterElastic && damping > 0) {
    factor = damping_factors();
    std::vector<double> damping_part(factor);
    for (double& x : damping_part) x -= 1;
    push(damping_part);
  }
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    loaded[i].f_n *= factor[i];
    out.load += loaded[i].f_n;
    out.normal_impulse_w += loaded[i].f_n * dt * loaded[i].nu_w;
  }
  const double K1 = kinetic_energy(a, b);
  out.normal_work = K1 - K0;

  // Friction impulses against the slip after the normal ones (Section 5.1).
  PartyImpulse friction_a, friction_b;
  Eigen::Vector3d friction_on_a_w = Eigen::Vector3d::Zero();
  for (const PushingSample& s : loaded) {
    const Eigen::Vector3d v_rel = velocity_at(a, s.x_w) - velocity_at(b, s.x_w);
    const Eigen::Vector3d slip_w = v_rel - v_rel.dot(s.nu_w) * s.nu_w;
    const double slip = slip_w.norm();
    if (!(slip > 0) || mu == 0) continue;
    const Eigen::Vector3d J_w = -mu * s.f_n * dt / slip * slip_w;
    friction_on_a_w += J_w;
    add(a, +1, s.x_w, J_w, friction_a);
    add(b, -1, s.x_w, J_w, friction_b);
  }
  double slope = 0, curvature = 0;
  energy_slope(a, friction_a, slope, curvature);
  energy_slope(b, friction_b, slope, curvature);
  out.friction_scale = curvature > -slope ? std::max(0.0, -slope / curvature) : 1.0;
  out.friction_impulse_w = out.friction_scale * friction_on_a_w;
  apply(a, friction_a, out.friction_scale);
  apply(b, friction_b, out.friction_scale);
  out.friction_work = kinetic_energy(a, b) - K1;
  return out;
}

}  // namespace contactref::quasi_rigid
