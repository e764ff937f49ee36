#include "reference/quasi_rigid/quasi_rigid_dynamics.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "reference/quasi_rigid/contact_impulses.hpp"

namespace contactref::quasi_rigid {
namespace {

std::string body_label(const std::vector<DynamicBody>& bodies, std::size_t k) {
  return "quasi-rigid dynamics: bodies[" + std::to_string(k) + "] (" + bodies[k].body.name() + ")";
}

void check_input(const std::vector<DynamicBody>& bodies, const DynamicsOptions& o) {
  const auto bad_option = [](const std::string& name, double value, const std::string& range) {
    std::ostringstream os;
    os << "quasi-rigid dynamics: " << name << " must be " << range << ", got " << value;
    throw InputError(os.str());
  };
  if (!o.gravity_w.allFinite()) bad_option("gravity", o.gravity_w.norm(), "finite");
  if (!(std::isfinite(o.duration) && o.duration >= 0)) bad_option("duration", o.duration, "finite and >= 0 (s)");
  if (!(std::isfinite(o.time_step) && o.time_step > 0)) bad_option("time_step", o.time_step, "finite and > 0 (s)");
  if (!(o.step_fraction > 0 && o.step_fraction <= 1)) bad_option("step_fraction", o.step_fraction, "in (0, 1]");
  if (!(std::isfinite(o.mu) && o.mu >= 0)) bad_option("mu", o.mu, "finite and >= 0");
  if (!(std::isfinite(o.damping) && o.damping >= 0)) bad_option("damping", o.damping, "finite and >= 0 (s/m)");
  if (!(std::isfinite(o.contact_tolerance) && o.contact_tolerance > 0))
    bad_option("contact_tolerance", o.contact_tolerance, "finite and > 0 (m)");
  if (!(std::isfinite(o.min_step) && o.min_step >= 0)) bad_option("min_step", o.min_step, "finite and >= 0 (s)");
  if (o.max_retractions < 0) bad_option("max_retractions", o.max_retractions, ">= 0");
  if (o.max_steps < 1) bad_option("max_steps", static_cast<double>(o.max_steps), ">= 1");
  if (o.watchdog < 1) bad_option("watchdog", o.watchdog, ">= 1");
  if (!(std::isfinite(o.output_interval) && o.output_interval >= 0))
    bad_option("output_interval", o.output_interval, "finite and >= 0 (s)");

  bool any_free = false;
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const DynamicBody& b = bodies[k];
    const BodyState& s = b.state;
    const auto bad = [&](const std::string& why) { throw InputError(body_label(bodies, k) + ": " + why); };
    if (!(s.x_w.allFinite() && s.q_w_b.coeffs().allFinite() && s.v_w.allFinite() && s.omega_w.allFinite()))
      bad("the state has a non-finite number (position, orientation, velocity or angular velocity)");
    if (!(std::abs(s.q_w_b.norm() - 1) <= 1e-9)) bad("the orientation quaternion is not of unit length");
    if (b.fixed) continue;
    any_free = true;
    if (!(std::isfinite(b.mass.mass) && b.mass.mass > 0)) {
      std::ostringstream os;
      os << "mass must be finite and > 0 (kg), got " << b.mass.mass;
      bad(os.str());
    }
    const Eigen::Matrix3d& I = b.mass.I_com_b;
    if (!I.allFinite() || (I - I.transpose()).cwiseAbs().maxCoeff() > 1e-12 * I.cwiseAbs().maxCoeff() ||
        !(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues().minCoeff() > 0))
      bad("inertia must be finite, symmetric and positive definite (kg m^2)");
  }
  if (!any_free) throw InputError("quasi-rigid dynamics: no free body: nothing moves");
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j)
      if (!(bodies[i].fixed && bodies[j].fixed) && bodies[i].body.material().E == 0 && bodies[j].body.material().E == 0)
        throw InputError(body_label(bodies, j) + ": it and bodies[" + std::to_string(i) +
                         "] are both rigid (E = 0) and one is free: their contact cannot be resolved");
}

struct Pair {
  std::size_t a, b;
};

// A body's bounding sphere (its hierarchy's root) in the world.
struct Sphere {
  Eigen::Vector3d centre_w;
  double radius;
};

Sphere bounding_sphere(const DynamicBody& body, const BodyState& state) {
  const Cluster& root = body.body.hierarchy().clusters().front();
  return {state.E_w_b() * root.centre, root.radius};
}

bool spheres_meet(const std::vector<DynamicBody>& bodies, const std::vector<BodyState>& states, const Pair& p,
                  double margin) {
  const Sphere A = bounding_sphere(bodies[p.a], states[p.a]), B = bounding_sphere(bodies[p.b], states[p.b]);
  return (A.centre_w - B.centre_w).norm() <= A.radius + B.radius + margin;
}

// The smallest nearest-sample distance (Section 4.1) of X's samples inside
// Y's bounding sphere to Y's surface (+infinity if none is inside it).
double smallest_distance(const DynamicBody& X, const BodyState& x, const DynamicBody& Y, const BodyState& y) {
  const RigidPose<double> E_y_x = y.E_w_b().inverse() * x.E_w_b();
  const Cluster& root = Y.body.hierarchy().clusters().front();
  double smallest = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& p_x : X.body.surface().samples().points) {
    const Eigen::Vector3d p_y = E_y_x * p_x;
    if ((p_y - root.centre).norm() > root.radius) continue;
    smallest = std::min(smallest, Y.body.nearest_sample_distance(p_y).distance);
  }
  return smallest;
}

double d_min(const std::vector<DynamicBody>& bodies, const std::vector<BodyState>& states,
             const std::vector<Pair>& pairs) {
  double smallest = std::numeric_limits<double>::infinity();
  for (const Pair& p : pairs) {
    if (!spheres_meet(bodies, states, p, 0)) continue;
    smallest = std::min(smallest, smallest_distance(bodies[p.a], states[p.a], bodies[p.b], states[p.b]));
    smallest = std::min(smallest, smallest_distance(bodies[p.b], states[p.b], bodies[p.a], states[p.a]));
  }
  return smallest;
}

std::vector<BodyState> flown(const std::vector<DynamicBody>& bodies, std::vector<BodyState> states,
                             const Eigen::Vector3d& gravity_w, double dt) {
  for (std::size_t k = 0; k < bodies.size(); ++k)
    if (!bodies[k].fixed) free_flight(bodies[k].mass, gravity_w, dt, states[k]);
  return states;
}

// step_fraction sqrt(m / k), k = 2 E* a (Sneddon), as in the header.
double rule_step(const DynamicBody& A, const DynamicBody& B, const QuasiRigidContact& c, double fraction) {
  const double m = A.fixed ? B.mass.mass
                   : B.fixed ? A.mass.mass
                             : A.mass.mass * B.mass.mass / (A.mass.mass + B.mass.mass);
  double resolution = std::numeric_limits<double>::infinity();
  for (const auto& [body, side] : {std::pair{&A, &c.a}, std::pair{&B, &c.b}})
    for (int s : side->active) resolution = std::min(resolution, body->body.sampling().spacing()(s));
  const double area = std::max(c.a.contact_area, c.b.contact_area);
  const double radius = std::max(std::sqrt(area / std::numbers::pi), resolution);
  const double k = 2 * radius / (std::numbers::pi * c.composite_compliance);
  return fraction * std::sqrt(m / k);
}

// A step of a pair in contact whose samples carry no traction: Section 4.1's
// nearest-sample classification is conservative (it flags samples within
// about a spacing's sag of a curved surface whose MLS gaps are positive), so
// a slow approach can spend long in such a contact with no force to
// integrate. Its step moves no point of either body by more than
// contact_tolerance relative to the other (the resolution at which flight
// locates a first contact): |v_a - v_b| + |w_a| rho_a + |w_b| rho_b bounds
// the points' relative speed (rho: the bounding sphere's reach from the
// centre of mass), and gravity accelerates one relative to the other only
// when one of them is fixed.
double unloaded_step(const DynamicBody& A, const BodyState& a, const DynamicBody& B, const BodyState& b,
                     const Eigen::Vector3d& gravity_w, double tolerance) {
  const auto reach = [](const DynamicBody& X, const BodyState& x) {
    const Sphere sphere = bounding_sphere(X, x);
    return (sphere.centre_w - x.x_w).norm() + sphere.radius;
  };
  const double speed = (a.v_w - b.v_w).norm() + a.omega_w.norm() * reach(A, a) + b.omega_w.norm() * reach(B, b);
  const double acceleration = A.fixed != B.fixed ? gravity_w.norm() : 0.0;
  // speed dt + acceleration dt^2 / 2 = tolerance
  if (acceleration > 0) return 2 * tolerance / (speed + std::sqrt(speed * speed + 2 * acceleration * tolerance));
  return speed > 0 ? tolerance / speed : std::numeric_limits<double>::infinity();
}

// A touching pair and its contact, resolved at the current poses.
using Contact = std::pair<Pair, QuasiRigidContact>;

// resolve_contact for every pair whose bounding spheres meet and that
// penetrates (ComputationError from it passes through).
std::vector<Contact> resolve_all(const std::vector<DynamicBody>& bodies, const std::vector<BodyState>& states,
                                 const std::vector<Pair>& pairs, const ContactOptions& options) {
  std::vector<Contact> contacts;
  for (const Pair& p : pairs) {
    if (!spheres_meet(bodies, states, p, 0)) continue;
    QuasiRigidContact c =
        resolve_contact(bodies[p.a].body, states[p.a].E_w_b(), bodies[p.b].body, states[p.b].E_w_b(), options);
    if (c.a.penetrating + c.b.penetrating > 0) contacts.emplace_back(p, std::move(c));
  }
  return contacts;
}

// One kick of a contact step: every contact's impulses over `half` (half the
// step), at the poses it was resolved at, added to the step's record. The
// opening kick reads the damping's rates at the step's start velocities, the
// closing one after its elastic impulses (contact_impulses.hpp). The step's
// load is the mean of its two kicks' loads (its normal impulse over dt); its
// loaded samples are those of its opening kick.
void kick(const std::vector<DynamicBody>& bodies, const std::vector<Contact>& contacts, const DynamicsOptions& options,
          double half, bool opening, std::vector<BodyState>& states, StepRecord& step) {
  const DampingRate rate = opening ? DampingRate::kBefore : DampingRate::kAfterElastic;
  for (const auto& [p, c] : contacts) {
    const ContactParty a{&bodies[p.a].body, bodies[p.a].fixed ? nullptr : &bodies[p.a].mass, &states[p.a]};
    const ContactParty b{&bodies[p.b].body, bodies[p.b].fixed ? nullptr : &bodies[p.b].mass, &states[p.b]};
    const ContactImpulses impulses = apply_contact_impulses(c, a, b, options.mu, options.damping, half, rate);
    if (!opening) {  // the contacts at the step's end
      for (const LoadedSample& sample : impulses.samples) step.samples.push_back({sample.side == 0 ? p.a : p.b, sample});
    }
    step.load += 0.5 * impulses.load;
    if (opening) step.loaded += impulses.loaded;
    step.normal_work += impulses.normal_work;
    step.friction_work += impulses.friction_work;
    step.friction_scale = std::min(step.friction_scale, impulses.friction_scale);
    step.normal_impulse_w[p.a] += impulses.normal_impulse_w;
    step.normal_impulse_w[p.b] -= impulses.normal_impulse_w;
    step.friction_impulse_w[p.a] += impulses.friction_impulse_w;
    step.friction_impulse_w[p.b] -= impulses.friction_impulse_w;
  }
}

bool finite(const BodyState& s) {
  return s.x_w.allFinite() && s.q_w_b.coeffs().allFinite() && s.v_w.allFinite() && s.omega_w.allFinite();
}

// "" or why a free body's centre of mass lies inside another body.
std::string fallen_through(const std::vector<DynamicBody>& bodies, const std::vector<BodyState>& states) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].fixed) continue;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
      if (j == i) continue;
      const Sphere other = bounding_sphere(bodies[j], states[j]);
      if ((states[i].x_w - other.centre_w).norm() > other.radius) continue;
      const Eigen::Vector3d c_j = states[j].E_w_b().inverse() * states[i].x_w;
      if (bodies[j].body.nearest_sample_distance(c_j).distance < 0)
        return body_label(bodies, i) + " fell through " + bodies[j].body.name() +
               ": its centre of mass is inside it";
    }
  }
  return "";
}

// "" or why the run cannot go on: a non-finite state, a body fallen through.
std::string broken(const std::vector<DynamicBody>& bodies, const std::vector<BodyState>& states) {
  if (!std::all_of(states.begin(), states.end(), finite)) return "a body's state is not finite (NaN or infinity)";
  return fallen_through(bodies, states);
}

}  // namespace

const char* to_string(RunStatus status) { return status == RunStatus::kCompleted ? "completed" : "failed"; }

DynamicsResult simulate_quasi_rigid(const std::vector<DynamicBody>& bodies, const DynamicsOptions& options,
                                    const std::function<void(double)>& progress, const DynamicsSinks& sinks) {
  check_input(bodies, options);
  std::vector<Pair> pairs;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j)
      if (!(bodies[i].fixed && bodies[j].fixed)) pairs.push_back({i, j});

  DynamicsResult result;
  std::vector<BodyState> states;
  for (const DynamicBody& b : bodies) states.push_back(b.state);
  double t = 0, next_output = options.output_interval, load = 0, last_output = -1;
  bool refused = false;  // a sink refused a row
  const auto fail = [&](const std::string& why) {
    result.status = RunStatus::kFailed;
    result.message = why;
  };
  // The rows to their sinks (or the result); a row a sink refuses ends the run.
  const auto emit = [&](auto* sink, auto& kept, const auto& row) {
    try {
      if (sink) {
        sink->write(row);
      } else {
        kept.push_back(row);
      }
    } catch (const ComputationError& e) {
      refused = true;
      fail(e.what());
    }
  };
  const auto output = [&] {
    last_output = t;
    ++result.rows;
    emit(sinks.samples, result.samples, DynamicsSample{t, states, load, result.normal_work, result.friction_work});
  };
  const auto record = [&](const StepRecord& step) {
    ++result.step_count;
    emit(sinks.steps, result.steps, step);
  };
  output();
  int stalled = 0;
  long steps = 0;
  // The contacts at the current poses when the last step resolved them at its
  // end (a contact step's closing kick): the next step starts from them.
  std::optional<std::vector<Contact>> resolved;
  if (const std::string why = broken(bodies, states); !why.empty()) fail(why + " at the start");
  while (result.status == RunStatus::kCompleted && t < options.duration) {
    if (++steps > options.max_steps) {
      fail("the run took more than max_steps = " + std::to_string(options.max_steps) + " steps");
      break;
    }
    StepRecord step;
    step.normal_impulse_w.assign(bodies.size(), Eigen::Vector3d::Zero());
    step.friction_impulse_w.assign(bodies.size(), Eigen::Vector3d::Zero());
    std::vector<Contact> contacts;
    try {
      contacts = resolved ? std::move(*resolved) : resolve_all(bodies, states, pairs, options.contact);
    } catch (const ComputationError& e) {
      fail(std::string("contact resolution failed at t = ") + std::to_string(t) + " s: " + e.what());
      break;
    }
    resolved.reset();
    const double remaining = options.duration - t;
    if (contacts.empty()) {  // a flight step, retraced to the first contact
      step.dt = std::min(options.time_step, remaining);
      std::vector<BodyState> end = flown(bodies, states, options.gravity_w, step.dt);
      double d = d_min(bodies, end, pairs);
      if (d < -options.contact_tolerance) {
        double lo = 0, hi = step.dt;
        for (int k = 0; k < 200 && !(d < 0 && d >= -options.contact_tolerance); ++k) {
          const double mid = 0.5 * (lo + hi);
          if (mid == lo || mid == hi) break;
          end = flown(bodies, states, options.gravity_w, mid);
          d = d_min(bodies, end, pairs);
          (d < -options.contact_tolerance ? hi : lo) = mid;
          step.dt = mid;
        }
        if (!(d < 0 && d >= -options.contact_tolerance)) {  // the bracket closed: take its penetrating end
          step.dt = hi;
          end = flown(bodies, states, options.gravity_w, hi);
          d = d_min(bodies, end, pairs);
        }
        step.retracted = true;
        ++result.retractions;
      }
      if (d < 0) result.first_contacts.push_back(t + step.dt);
      states = std::move(end);
      ++result.flight_steps;
    } else {  // a contact step: kick, drift, kick (velocity Verlet)
      step.contact = true;
      step.rule_step = std::numeric_limits<double>::infinity();
      bool loaded_start = false;
      for (const auto& [p, c] : contacts) {
        const bool loaded = c.a.load > 0 || c.b.load > 0;
        loaded_start = loaded_start || loaded;
        step.rule_step = std::min(step.rule_step, loaded ? rule_step(bodies[p.a], bodies[p.b], c, options.step_fraction)
                                                         : unloaded_step(bodies[p.a], states[p.a], bodies[p.b],
                                                                         states[p.b], options.gravity_w,
                                                                         options.contact_tolerance));
      }
      if (step.rule_step < options.min_step && step.rule_step < remaining) {
        std::ostringstream os;
        os << "at t = " << t << " s the contact step would be " << step.rule_step
           << " s (step_fraction sqrt(m / k), or an unloaded contact's: no point moves more than contact_tolerance = "
           << options.contact_tolerance << " m in it), below min_step = " << options.min_step
           << " s: the contact cannot be resolved";
        fail(os.str());
        break;
      }
      step.dt = std::min({options.time_step, step.rule_step, remaining});
      for (const auto& [p, c] : contacts) step.active += static_cast<int>(c.a.active.size() + c.b.active.size());
      const std::vector<BodyState> start = states;
      kick(bodies, contacts, options, 0.5 * step.dt, true, states, step);
      states = flown(bodies, states, options.gravity_w, step.dt);
      if (broken(bodies, states).empty()) {  // else the checks below end the run
        try {
          resolved = resolve_all(bodies, states, pairs, options.contact);
        } catch (const ComputationError& e) {  // the run ends at the step's start
          states = start;
          fail(std::string("contact resolution failed at t = ") + std::to_string(t + step.dt) + " s: " + e.what());
          break;
        }
        // A step that starts unloaded is a flight to its end: a load there (from
        // at most contact_tolerance of approach) is the next step's to
        // integrate, as after a located first contact, not the trapezoid's
        // over a step the stiffness did not size.
        if (loaded_start) kick(bodies, *resolved, options, 0.5 * step.dt, false, states, step);
      }
      ++result.contact_steps;
      result.max_active = std::max(result.max_active, step.active);
    }
    const double t_end = t + step.dt;
    stalled = t_end > t ? 0 : stalled + 1;
    t = std::max(t, t_end);
    step.time = t;
    load = step.load;
    result.normal_work += step.normal_work;
    result.friction_work += step.friction_work;
    record(step);
    if (progress) progress(t);
    if (result.status != RunStatus::kCompleted) break;

    if (const std::string why = broken(bodies, states); !why.empty()) {
      fail(why + " at t = " + std::to_string(t) + " s");
      break;
    }
    if (result.retractions > options.max_retractions) {
      fail("more than max_retractions = " + std::to_string(options.max_retractions) + " retractions to first contact");
      break;
    }
    if (stalled >= options.watchdog) {
      fail("the watchdog: " + std::to_string(stalled) + " steps in a row did not advance the clock at t = " +
           std::to_string(t) + " s");
      break;
    }
    if (options.output_interval == 0 || t >= next_output || t >= options.duration) {
      output();
      if (options.output_interval > 0) next_output = options.output_interval * (std::floor(t / options.output_interval) + 1);
    }
  }
  // The end's row, unless a sink refused one or the state is broken (a
  // non-finite state is never a row).
  if (last_output != t && !refused && broken(bodies, states).empty()) output();
  result.final_states = states;
  return result;
}

}  // namespace contactref::quasi_rigid
