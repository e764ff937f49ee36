#pragma once
// An independent model of a convex rigid body rolling without slipping on the
// plane z_w = 0 (normal +z_w) under uniform gravity, in maximal coordinates,
// the reference for the no-slip runs of the reduced-coordinate simulator
// (reference/dynamics; suite rattleback-reversal). It shares no code with
// reference/dynamics, reference/kinematics or reference/surfaces: the body's
// surface is given by its support map in closed form, the equations below are
// written in the world frame, and the integrator is Boost.Odeint's
// Runge-Kutta-Fehlberg 7(8) (its eighth-order solution) at fixed steps.
//
// State y = (q, p, v, omega, W): q the unit quaternion (w, x, y, z) of R =
// R_w_b (body axes in the world), p the centre of mass, v = p', omega the
// angular velocity in world axes, W the work of the law (below) since the
// start. The body frame b is at the centre of mass; I_b the inertia there,
// I = R I_b R^T.
//
// Contact point. The body touches the plane where its outward normal is
// n_w = -z_w, i.e. n_b = R^T n_w in body axes; the surface point with that
// normal is the support point c_b = c(n_b) (ConvexShape), r = R c_b the
// arm from the centre of mass to it. The gap is g = p_z + z_w . r.
//
// Rolling constraint (nonholonomic): the body's material point at the contact
// has zero velocity,
//   u = v + omega x r = 0                                          (1)
// (three rows). Its normal row is the holonomic contact: g' = v_z + z_w . r'
// with r' = omega x r + R c_b', and z_w . R c_b' = -n_b . c_b' = 0 because
// c_b' is tangent to the surface at c_b, so g' = z_w . u.
//
// Acceleration level: d/dt of (1) along the motion,
//   v' + omega' x r + omega x r' = 0,  r' = omega x r + R C n_b',
//   n_b' = -R^T (omega x n_w),                                     (2)
// with C = dc/dn (ConvexShape::point_derivative), n_b' from R' = [omega] R.
//
// Newton-Euler about the centre of mass, with the multiplier lambda (the
// contact force on the body, f_n = z_w . lambda its normal part):
//   m v' = m g + lambda,                                           (3)
//   I omega' + omega x I omega = r x lambda + tau,                 (4)
//   tau = -damping omega - f_n a,
//   a = mu_roll omega_t / |omega_t| + mu_spin sgn(omega_z) z_w,
// omega_t = omega - omega_z z_w the rolling velocity: viscous damping (a
// torque on the body against its angular velocity) and the rolling and
// spinning resistance of Kry's thesis Eqs. 4.27-4.29 (couples of magnitude
// mu_roll f_n and mu_spin f_n against the rolling and the spin; a couple is
// the same about the contact point and the centre of mass). The KKT system
// of (2)-(4) in (v', omega', lambda) is solved by elimination: (2) gives
// v' = r x omega' - omega x r', (3) lambda = m (v' - g), and (4) becomes
// the balance of angular momentum about the contact point
//   (I - m [r]^2 + m a (z_w^T [r])) omega'
//       = -omega x I omega - damping omega - m r x (omega x r' + g)
//         + m a (z_w . (omega x r' + g)),                          (5)
// (I - m [r]^2 is the inertia about the contact point), a 3 x 3 system solved
// by LU with partial pivoting (not symmetric when a != 0). Then q' =
// (0, omega) (x) q / 2, p' = v, and W' = omega . tau (the constraint force
// does no work on a body whose contact point is at rest, lambda . u = 0):
//   W' = -damping |omega|^2 - f_n (mu_roll |omega_t| + mu_spin |omega_z|).
// A rolling or spin at rest (|omega_t| or |omega_z| within 64 eps |omega|)
// has no direction for its resistance: it takes the direction in which the
// motion starts, that of omega' solved without that resistance (the limit
// along the trajectory, so that a step from rest keeps the order).
//
// Scope: the body stays on the plane in no-slip: the run ends with a
// ComputationError if the normal force f_n turns negative (the body would
// lift off), if the support map fails (the normal leaves the shape's reach),
// or if a resisted rolling or spin reverses at a stage of a step against its
// direction at the step's start (it stopped: the reduced model's no-roll,
// no-spin and rest modes, which hold it there, are not modelled). Friction
// is not bounded (no Coulomb cone: no sliding).
//
// Constraint drift. Nothing pulls (1) back: u and g drift at the integrator's
// error; the samples report both (|u| and g), and the quaternion's norm drifts
// likewise (R is built from q / |q|, so the motion does not depend on it).
#include <memory>
#include <vector>

#include "core/scalar.hpp"

namespace contactref::oracles {

// A strictly convex surface by its support map, in body coordinates (origin
// at the centre of mass).
class ConvexShape {
 public:
  virtual ~ConvexShape() = default;
  // The surface point whose outward unit normal is n_b. ComputationError when
  // no point of the shape has that normal.
  virtual Vec3<double> point(const Vec3<double>& n_b) const = 0;
  // d point / d n_b at n_b (applied only to tangent directions, n_b' . n_b = 0).
  virtual Mat3<double> point_derivative(const Vec3<double>& n_b) const = 0;
};

// A sphere of the radius about centre_b: c = centre_b + radius n, C = radius 1.
class SphereShape : public ConvexShape {
 public:
  // InputError unless the radius is positive and finite and the centre finite.
  SphereShape(const Vec3<double>& centre_b, double radius);
  Vec3<double> point(const Vec3<double>& n_b) const override;
  Mat3<double> point_derivative(const Vec3<double>& n_b) const override;

 private:
  Vec3<double> centre_b_;
  double radius_;
};

// The elliptic paraboloid with its apex at apex_b, its axis along +z_b, and
// the curvature tensor K (symmetric positive definite, 1/m) at the apex:
//   z = apex_z - 1/2 d^T K d,  d = (x - apex_x, y - apex_y),
// whose outward normal is proportional to (K d, 1). The point with normal n
// (n_z > 0) has the slope s = (n_x, n_y) / n_z = K d, so
//   d = K^-1 s,  c = apex_b + (d, -1/2 s^T K^-1 s),
//   dd/dn = K^-1 (1 | -s) / n_z,  dc_z/dn = -d^T (1 | -s) / n_z.
class ParaboloidShape : public ConvexShape {
 public:
  // InputError unless K is symmetric positive definite and everything finite.
  ParaboloidShape(const Vec3<double>& apex_b, const Eigen::Matrix2d& K);
  // ComputationError unless n_z > 0 (no point of the paraboloid faces away from +z_b).
  Vec3<double> point(const Vec3<double>& n_b) const override;
  Mat3<double> point_derivative(const Vec3<double>& n_b) const override;

 private:
  Vec3<double> apex_b_;
  Eigen::Matrix2d K_inverse_;
};

// The law's coefficients (Eq. 4): as reference/dynamics' FrictionLaw, kept
// separate so that the oracle shares none of its code.
struct RollingLaw {
  double mu_roll = 0;  // m
  double mu_spin = 0;  // m
  double damping = 0;  // N m s
};

struct RollingBody {
  double mass = 0;                                // kg
  Mat3<double> inertia_b = Mat3<double>::Zero();  // kg m^2 about the centre of mass, body axes
  Vec3<double> gravity_w = Vec3<double>::Zero();  // m/s^2
  std::shared_ptr<const ConvexShape> shape;
  RollingLaw law;
};

// A physical state (the start of a run, e.g. another model's row).
struct RollingState {
  Mat3<double> R_w_b = Mat3<double>::Identity();  // orthonormal (to 1e-9)
  Vec3<double> com_w = Vec3<double>::Zero();
  Vec3<double> com_velocity_w = Vec3<double>::Zero();
  Vec3<double> omega_w = Vec3<double>::Zero();
};

// Everything the model computes at one state.
struct RollingEvaluation {
  Vec3<double> contact_w = Vec3<double>::Zero();  // p + r (its z is the gap g)
  Vec3<double> slip_w = Vec3<double>::Zero();     // u (Eq. 1), m/s
  Vec3<double> acceleration_w = Vec3<double>::Zero();          // v'
  Vec3<double> angular_acceleration_w = Vec3<double>::Zero();  // omega'
  Vec3<double> contact_force_w = Vec3<double>::Zero();         // lambda
  double normal_force = 0;  // f_n = z_w . lambda, N
  double energy = 0;        // J: 1/2 m |v|^2 + 1/2 omega . I omega - m g . p
  double power = 0;         // W: the law's, W'
};

struct RollingSample {
  double time = 0;  // s
  RollingState state;
  RollingEvaluation evaluation;
  double work = 0;  // J: the law's since the start
};

struct RollingRun {
  std::vector<RollingSample> samples;  // one per requested time
  long steps = 0;
  double max_gap = 0;    // m: the largest |g| over the samples
  double max_slip = 0;   // m/s: the largest |u| over the samples
};

// Evaluates Eqs. 1-5 at a state. InputError for a bad body (mass or inertia
// not positive definite, no shape, non-finite gravity, a negative law
// coefficient) or a non-finite state; ComputationError from the shape or for
// a singular Eq. 5.
RollingEvaluation evaluate_rolling(const RollingBody& body, const RollingState& state);

// Integrates from `start` at time t0 and returns the state at each of
// `times` (non-decreasing, >= t0): between consecutive times the interval is
// cut into the fewest equal steps of at most h. InputError for a bad body,
// start, h (positive, finite) or times, or more than 1e8 steps in all;
// ComputationError as in the header's scope (with the time).
RollingRun run_rolling(const RollingBody& body, const RollingState& start, double t0, const std::vector<double>& times,
                       double h);

}  // namespace contactref::oracles
