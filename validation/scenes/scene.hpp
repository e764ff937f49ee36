#pragma once
// Scenes: the JSON files read by `contactref simulate` and `contactref
// kinematics`, one format for every contact model (shared/DESIGN.md). SI units
// throughout: m, kg, s, N, radians.
//
// {
//   "name": "bowl",                  optional string; default: the file name without
//                                    extension. Names the default output folder.
//   "description": "...",            optional free text (JSON has no comments)
//   "gravity": [0, 0, -9.81],        optional, m/s^2, world frame; default [0, 0, -9.81]
//   "model": MODEL,                  optional; default {"type": "smooth"}
//   "bodies": [ BODY, ... ],         required, at least one; names unique
//   "duration": 3.0,                 optional, s, >= 0; default 1
//   "output": {"interval": 0.01,     optional; s between output rows, >= 0 (0: every
//              "samples": "csv"},    accepted step); default 0.01. "samples", the
//                                    quasi-rigid model only: "csv" (default: contacts.csv,
//                                    every column) or "binary" (samples.bin, the points and
//                                    tractions, validation/app/samples_file.hpp, for long
//                                    runs of many samples; no contacts.csv)
//   "joints": [ JOINT, ... ],        optional, volume-6d and point-contact only: bilateral
//                                    joints (below)
//   "limits": {"max_steps": 1e7,     optional, whole numbers >= 1: a run whose duration over
//              "max_rows": 1e6},     its largest step (integrator.h_max, model.time_step)
//                                    exceeds max_steps, or whose output rows (duration over
//                                    output.interval, or its steps when 0) exceed max_rows,
//                                    is refused (bad input, naming the field); a smooth or
//                                    quasi-rigid run that takes more steps than max_steps
//                                    ends failed. Defaults 1e7 and 1e6: longer runs are
//                                    mistakes more often than jobs; raise them to run one
//   the smooth model's fields (refused by the other models):
//   "contact": CONTACT,              required
//   "friction": FRICTION,            optional; default frictionless
//   "integrator": INTEGRATOR         optional; defaults below
//   "collision": {"restitution": e, "tangential_restitution": e_t}
//                                    optional: the impacts in flight (Chatterjee & Ruina,
//                                    reference/dynamics/collision_law.hpp), with friction.mu;
//                                    both in [0, 1], default 0 (plastic, sticking)
// }
//
// FRICTION (Kry & Pai Section 3.4, Kry's thesis Section 4.4;
// reference/dynamics/mode_switching.hpp), every field optional:
//   "mu": 0.3                        dynamic Coulomb coefficient (Eq. 21), >= 0; default 0
//   "mu_static": 0.3                 static coefficient (Eq. 35): no-slip holds while
//                                    |f_t| <= mu_static f_n; >= mu; default mu
//   "mu_roll": 0.003                 m, rolling resistance (thesis Eqs. 4.27-4.28), >= 0;
//                                    default 0
//   "mu_spin": 0.0001                m, spinning resistance (thesis Eq. 4.29) and the static
//                                    spin limit of no-spin (Eq. 40), >= 0; default 0
//   "slip_threshold": 0.005          m/s: the slip is held (sliding turns to no-slip) when its
//                                    speed falls to it (Kry & Pai: 2.5 to 5 mm/s), >= 0;
//                                    0: when it reaches zero; default 0.005
//   "spin_threshold": 0.01           rad/s: the spin is held (no-spin, or sliding-no-spin
//                                    while sliding) when it falls to it (needs mu_spin > 0),
//                                    >= 0; default 0: when it reaches zero
//   "roll_threshold": 0.01           rad/s: the rolling is held (no-roll, rest, or
//                                    sliding-no-roll while sliding) when its speed falls to
//                                    it (needs mu_roll > 0), >= 0; default 0: when it
//                                    reaches zero (mode_switching.hpp: a velocity that
//                                    cannot be held goes on through zero)
//   "damping": 0.01                  N m s: viscous torque -damping omega on the free body;
//                                    default 0
// All zero (or no "friction"): the frictionless contact of Eq. 20.
//
// MODEL: {"type": "smooth" | "quasi-rigid" | "volume-6d" | "point-contact"}
//   smooth: Kry & Pai's single continuous contact between a free body with a
//   parametric surface and a fixed one (two bodies exactly).
//   quasi-rigid: Pauly et al.'s point-sampled quasi-rigid bodies, any number,
//   free or fixed (reference/quasi_rigid/quasi_rigid_dynamics.hpp), with these
//   MODEL fields, every one optional:
//     "E": 1e6                 Pa, >= 0 (0: rigid): Young's modulus of every body without
//                              its own "material"; with "nu", needed by `simulate` then
//     "nu": 0.3                Poisson's ratio, in [0, 0.5)
//     "kernel": "boussinesq"   the response (Eq. 1) or "volume-preserving" (Section 3.1.1,
//                              reference/quasi_rigid/response_matrix.hpp); default boussinesq
//     "sigma": 0.01            m, > 0: the volume-preserving kernel's width (required by it)
//     "mu": 0.5                Coulomb's coefficient (Section 5.1), >= 0; default 0
//     "damping": 0             s/m, >= 0: Hunt and Crossley's normal damping
//                              (reference/quasi_rigid/contact_impulses.hpp); default 0: none,
//                              as in the paper
//     "time_step": 0.001       s, > 0: the flight step and the largest contact step, at least
//                              duration / 10^7 (the simulator's step limit); default 0.001
//     "step_fraction": 0.05    in (0, 1]: the contact step's fraction of sqrt(m / k), k the
//                              contact's stiffness (Sneddon's 2 E* a); default 0.05
//     "min_step": 1e-9         s, >= 0: a contact step's rule (the above, or an unloaded
//                              contact's contact_tolerance step) below it ends the run
//                              failed, naming it; default 1e-9; 0: none
//     "contact_tolerance": 1e-5  m, > 0: the first contact is located (retraced) to this
//                              nearest-sample distance; default 1e-5
//     "spacing": 0.008         m, > 0: sphere, plane and box geometries are sampled into points
//                              this far apart (required when the scene has one; at most about
//                              2 million samples a body)
//     "plane_radius": 0.25     m, > 0: a plane geometry is the lattice disk of this radius; default 0.25
//     "active_range": 3        spacings about each penetrating sample (Section 4.1's range query);
//                              default 3
//     "max_retractions": 10000 retractions to first contact before the run fails; default 10000
//   Its bodies take "points" (the file's samples), "sphere", "plane" (z = 0, normal +z) or
//   "box" geometries (no "transform": place them by their pose), and optionally
//   "material": {"E": Pa, "nu": -} of their own. A free body's frame is at its centre of
//   mass (give points in those coordinates with mass and inertia; a sphere or box can take
//   a density).
//   volume-6d: Bouchard et al.'s 6D volume contact, and point-contact: its point-contact
//   baseline (Section 6), rigid polyhedral bodies, any number, free or fixed
//   (reference/volume_contact/volume_world.hpp), with these MODEL fields, every one optional:
//     "time_step": 0.01        s, > 0: the fixed step (semi-implicit Euler), at least
//                              duration / 10^7; default 0.01
//     "mu": 0.3                Coulomb's coefficient of every body, >= 0; default 0
//     "target_volume": 1e-8    m^3, >= 0: the interpenetration post-stabilisation keeps
//                              (Section 5.7's e), one for every pair; default: each pair's
//                              own, its patch's area times the depth 1e-6 of the smaller
//                              bounding radius of its bodies (volume_world.hpp). With 0 a
//                              resting contact is pushed out to zero volume each step and
//                              seen only every other step: the bodies rock and creep
//     "stabilisation": "patch-normal"  post-stabilisation's direction: "patch-normal" (along
//                              the normal at the patch's centre; default) or "volume-gradient"
//                              (the paper's: along the whole volume gradient, whose moments at
//                              flush faces turn a stack of equal boxes)
//     "tolerance": 1e-15       >= 0: PGS stops when the 2-norm of a sweep's impulse updates
//                              (N s, with N m s for 6D joints) is at most this (Section 6.1.8);
//                              default 1e-15
//     "max_iterations": 1000   >= 1: PGS sweeps per step at most; default 1000
//     "warm_start": true       start PGS from the previous step's impulses; default true
//     "thin": 0.1              in (0, 1): the patch's limiting-case ratio of semi-axes
//                              (reference/volume_contact/contact_patch.hpp); default 0.1
//     "ground_size": 10        m, > 0: a plane's slab is this square, 1 m thick, its top
//                              face on the plane: the ground of both models, in detection and
//                              post-stabilisation (a body past its edge falls); default 10
//     "joint_elimination": true  PGS updates a contact with the bilateral joints of its
//                              bodies (fast with a light body on a hinge; the same answer:
//                              reference/volume_contact/block_pgs.hpp); false: plain block
//                              Gauss-Seidel, the paper's; default true
//     "exact_moments": false   every pair of meshes' intersection by the exact corefinement
//                              (CGAL, rounded once); default false: a pair of convex bodies
//                              by double-precision clipping (robust_geometry/
//                              convex_moments.hpp; the same to rounding, thousands of times
//                              faster), the exact corefinement for the others
//   volume-6d only:
//     "linear_compliance": 0   m/N, >= 0: a force F displaces the joint by c F (Section 5.7);
//                              default 0 (rigid)
//     "angular_compliance": 0  rad/(N m), >= 0: the same for torques; default 0
//     "patch": "ellipse"       where the centre of pressure may go and what bounds the spin
//                              torque: "ellipse", Appendix A's (the paper's; it reaches
//                              past the contact region), or "support", the contact region
//                              itself with a uniform pressure's spin torque
//                              (reference/volume_contact/support_region.hpp); default
//                              "ellipse"
//     "spin_resolve": true     after Algorithm 1's spin clamp, re-solve the joint's other
//                              rows (reference/volume_contact/wrench_projection.hpp);
//                              false: the paper's clamp alone; default true
//     "normal_differences": true  between meshes with near-parallel faces, the normal from
//                              central differences of the volume
//                              (reference/volume_contact/contact_detection.hpp); false: the
//                              exact gradient's (Section 4.1); default true
//   point-contact only:
//     "touch_tolerance": 1e-3  m, > 0: the distance within which features touch
//                              (robust_geometry/contact_regions.hpp), below half the
//                              shortest edge of every body; default 1e-3. A contact's
//                              corner may close its gap within a step
//   Their bodies take "mesh", "box" and "prism" geometries, free or fixed, and "plane" for a
//   fixed ground: the slab below the plane z = 0 of its body frame (normal +z, placed by its
//   pose; no "transform"; ground_size above). A pair's friction is the larger of its bodies'
//   (all mu here). A free body's frame is at its centre of mass: give a density, or mass
//   and inertia with the vertices in centre-of-mass coordinates. A free body's velocity
//   must keep its points below the speed of light (|v| + |omega| r < 299792458 m/s, r its
//   bounding radius): the model is Newtonian.
//   JOINT (Section 6.1.6's "rotary joints", reference/volume_contact/volume_world.hpp):
//     "type": "hinge"          required: "hinge" (turns about its axis only) or "spherical"
//                              (turns freely about its anchor)
//     "body1": "hand", "body2": "finger"  required: two different bodies, not both fixed;
//                              a drive turns body2 relative to body1
//     "anchor": [x, y, z]      required, m: the pivot, world coordinates at the initial poses
//     "axis": [ax, ay, az]     hinge: required, non-zero, world axes at the initial poses
//     "drive": {"stiffness": 10, "damping": 0.1, "angle": 0.03}
//                              hinge, optional: the PD torque stiffness (angle - theta) -
//                              damping theta_dot about the axis (N m/rad >= 0, N m s/rad >= 0,
//                              rad in [-pi, pi], each optional, default 0), theta body2's turn
//                              relative to body1 from the initial poses (right-handed about
//                              the axis)
//
// BODY:
//   "name": "top"                    required, non-empty, unique
//   "geometry": GEOMETRY             required ("surface" is accepted as its former name;
//                                    not both)
//   "fixed": false                   optional boolean; default false
//   free body (fixed false): its frame is at its centre of mass, and either
//     "mass": 5                      kg, > 0, together with
//     "inertia": [[..3], [..3], [..3]]  kg m^2, about the centre of mass in body axes,
//                                    symmetric positive definite, principal moments obeying
//                                    the triangle inequality; the geometry is given in
//                                    these body coordinates;
//   or
//     "density": 1000                kg/m^3, uniform, > 0, for a geometry that encloses a
//                                    volume (loop, sphere, ellipsoid, torus, mesh, box,
//                                    prism): mass and inertia are computed and the geometry
//                                    is SHIFTED by minus its centre of mass, so that the
//                                    body origin is the centre of mass. The shift is kept
//                                    in SceneBody::com_shift and reported by `simulate`.
//   fixed body (fixed true): no mass, inertia, density or velocity.
//   "pose": {"position": [x, y, z], "rotate": [angle, [ax, ay, az]]}
//                                    optional: E_w_b, the world pose of the body frame
//                                    (at the centre of mass for a free body):
//                                    x_w = R x_b + position, R the rotation by angle
//                                    (radians) about the axis; default identity. "offset"
//                                    is accepted as the former name of "position".
//   "velocity": {"linear": [vx, vy, vz], "angular": [wx, wy, wz]}
//                                    optional, free bodies: the velocity of the centre of
//                                    mass (m/s) and the angular velocity (rad/s), both in
//                                    the world frame; default zero.
//   In the smooth model a start in contact (contact.q) places and moves the free
//   body by contact.q and contact.qdot: its pose and velocity are refused then;
//   without contact.q it starts in flight from them.
//
// GEOMETRY ("type" required). Parametric surfaces ("transform" optional for each):
//   {"type": "plane"}                          c(u, v) = (u, v, 0), normal +z
//   {"type": "sphere", "radius": r}            the ellipsoid chart below with a = b = c = r (m)
//   {"type": "ellipsoid", "radii": [a, b, c]}  c(s, t) = (a cos s, b sin s cos t, c sin s sin t),
//                                              s in [0, pi], t periodic (m)
//   {"type": "torus", "radii": [R, r]}         R > r > 0 (m), both parameters periodic
//   {"type": "cylinder", "radius": r}          c(s, t) = (r cos s, r sin s, t) (m)
//   {"type": "paraboloid", "curvatures": [k1, k2]}  c(u, v) = (u, v, (k1 u^2 + k2 v^2)/2) (1/m)
//   {"type": "bezier", "control_points": [[x, y, z], ...16]}  bicubic over [0, 1]^2,
//                                              P_ij = control_points[4 i + j], row index i with s (m)
//   {"type": "loop", "mesh": "bowl.obj"}       Loop subdivision surface of a closed triangle
//                                              mesh (OBJ, OFF or PLY), one patch per face
//   "transform": {"scale": [sx, sy, sz] or s, "rotate": [angle, [ax, ay, az]], "offset": [x, y, z]}
//     c' = R (S c) + offset (reference/surfaces/transformed_patch.hpp): scale (dimensionless,
//     > 0, default 1), angle in radians about the axis (default none), offset in m
//     (default 0). Applied to the control points of bezier and loop surfaces (both are
//     affine invariant), and by a TransformedPatch around analytic ones.
//   Every surface becomes a surfaces::PatchComplex (loop: one patch per face with their
//   adjacency; every other type: one patch without neighbours). Normals c_s x c_t point
//   out of the body (Loop meshes: faces counter-clockwise seen from outside); at the
//   contact body 1's normal points into body 2 (Kry & Pai Eq. 7), so a plane floor
//   carries body 1 on its +z side. The charts' poles (ellipsoid s = 0, pi) are not
//   regular points and cannot be contact points.
// Polyhedra (robust_geometry::Polyhedron: closed, manifold, outward faces), in m:
//   {"type": "mesh", "file": "cube.off"}       a polygon mesh file (OFF, OBJ or PLY)
//   {"type": "box", "size": [lx, ly, lz]}      the box [-lx/2, lx/2] x [-ly/2, ly/2] x [-lz/2, lz/2]
//   {"type": "prism", "sides": n, "radius": r, "height": h}
//                                              the regular n-gon prism about z (3 <= n <= 4096),
//                                              vertices at radius r and angles 2 pi k / n,
//                                              z in [-h/2, h/2]: centred at its centre of mass
// Point clouds (the quasi-rigid model's surfaces):
//   {"type": "points", "file": "foot.ply"}     PLY or XYZ with a normal per point (required);
//                                              no volume: a free body gives mass and inertia
// A relative file name is resolved against the scene file's folder.
//
// CONTACT (smooth model):
//   "body1": "top", "body2": "floor" required: body1 free, body2 fixed
//   "patch1": 0, "patch2": 0         optional patch (face) indices; default 0
//   "q": [s, t, u, v, psi]           optional (without it the free body starts in flight from
//                                    its pose and velocity, apart from body 2): parameters of
//                                    the contact point on patch1
//                                    (s, t) and patch2 (u, v), and the angle psi (rad)
//                                    between the contact frames (Kry & Pai Eq. 7-8). Chart
//                                    parameters are in the chart's units (radians for the
//                                    ellipsoid and torus angles, m for the plane's u, v;
//                                    dimensionless for bezier [0, 1]^2 and for loop faces,
//                                    the unit triangle (0,0), (1,0), (0,1))
//   "qdot": [..5]                    optional, their rates (the same units per second);
//                                    default zeros
//   q must lie in both patch domains at regular points; at load the dynamics are
//   evaluated once: conforming contact (H^T M H singular) is rejected. A negative
//   initial normal force separates the bodies at once (flight).
//
// INTEGRATOR (smooth model):
//   "type": "rk4" | "dormand-prince" optional; default "rk4"
//   "h_max": 0.016, "h_min": 0.001   s, 0 < h_min <= h_max; defaults 0.016 and 0.001; h_min at
//                                    least 2^10 eps duration (dynamics::min_resolvable_step),
//                                    or the steps would not move the clock
//   "tolerance": 1e-10               dormand-prince only, > 0: per-step error bound; default 1e-10
//   "boundary": "integrated" | "linear"  how a patch-boundary crossing is located
//                                    (dynamics::BoundaryLocation); default "integrated"
//   "contact_tolerance": 1e-9        m, > 0: the gap to which the first contact of a flight
//                                    is located; default 1e-9
//   "proximity_bound": 1e-4          m, > 0: the largest distance of each body's polyhedral
//                                    approximation (collision detection) from its surface;
//                                    default 1e-4
//
// Every error is an InputError whose message starts with the scene file and the
// JSON path of the field: `scene.json: bodies[0].geometry.type: unknown geometry
// type "cone" (known: ...)`. Unknown fields, duplicate keys, wrong types (a
// string or null where a number is expected), wrong array lengths and
// non-finite numbers are errors. validation/fixtures/scenes/ holds an example
// of every geometry type.
#include <filesystem>
#include <string>
#include <vector>

#include "core/rigid_pose.hpp"
#include "reference/dynamics/contact_simulation.hpp"
#include "validation/scenes/geometry.hpp"
#include "validation/scenes/quasi_rigid_scene.hpp"
#include "validation/scenes/volume_contact_scene.hpp"

namespace contactref::scenes {

enum class ModelType { kSmooth, kQuasiRigid, kVolume6d, kPointContact };
// "smooth", "quasi-rigid", "volume-6d", "point-contact".
const char* to_string(ModelType type);

struct SceneBody {
  std::string name;
  std::string geometry_type;  // "plane", ..., "loop", "mesh", "box", "prism", "points"
  GeometryKind kind = GeometryKind::kSurface;
  bool fixed = false;
  // Free bodies: mass (kg) and inertia about the centre of mass, body axes (kg m^2).
  double mass = 0;
  Mat3<double> I_com = Mat3<double>::Zero();
  // From "density": the density (kg/m^3, else 0), the enclosed volume (m^3) and
  // the centre of mass of the geometry as given (after its transform), in m:
  // the geometry was moved by -com_shift so that the body origin is the
  // centre of mass.
  double density = 0;
  double volume = 0;
  Vec3<double> com_shift = Vec3<double>::Zero();
  RigidPose<double> E_w_b;                     // the body frame in the world
  Vec3<double> v_w = Vec3<double>::Zero();      // velocity of the centre of mass, world (m/s)
  Vec3<double> omega_w = Vec3<double>::Zero();  // angular velocity, world (rad/s)
  std::filesystem::path file;                   // loop, mesh, points: the file, resolved
  BodyGeometry geometry;                        // in body coordinates
  GeometrySpec spec;                            // as read (before the shift by -com_shift)
  std::optional<quasi_rigid::Material> material;  // the quasi-rigid model's "material", if given

  // Parametric surfaces only.
  const surfaces::PatchComplex<double>* complex() const { return geometry.complex; }
  int patch_count() const { return int(complex()->patches.size()); }
  const surfaces::Patch<double>& patch(int index) const { return *complex()->patches[std::size_t(index)]; }
};

struct Scene {
  std::filesystem::path file;  // as given
  std::string name;
  std::string description;
  Vec3<double> gravity = Vec3<double>(0, 0, -9.81);
  ModelType model = ModelType::kSmooth;
  std::vector<SceneBody> bodies;
  // The smooth model's contact: indices into bodies of the free and the fixed
  // body, the initial contact state, friction and the integrator (whose
  // duration and output interval every model uses).
  int body1 = 0, body2 = 1;
  dynamics::ContactState<double> initial;  // unless it starts in flight
  bool starts_in_flight = false;           // no contact.q: from the free body's pose and velocity
  dynamics::FrictionModel<double> friction;
  double restitution = 0, tangential_restitution = 0;  // "collision"
  dynamics::SimulationOptions<double> options;
  bool binary_samples = false;  // "output": {"samples": "binary"} (the quasi-rigid model)
  QuasiRigidModel quasi_rigid;  // the quasi-rigid model's fields
  VolumeContactModel volume_contact;  // the volume-6d and point-contact models' fields
  std::vector<volume_contact::BilateralJoint> joints;  // and their "joints", in the bodies' frames

  const SceneBody& free_body() const { return bodies[std::size_t(body1)]; }
  const SceneBody& fixed_body() const { return bodies[std::size_t(body2)]; }
  // The smooth model's system for dynamics::simulate; it points into this scene.
  dynamics::ContactSystem<double> system() const;
  // The smooth model's start in flight (starts_in_flight).
  dynamics::FlightStart<double> flight_start() const;
};

struct LoadOptions {
  // Evaluate the dynamics at the initial state (conforming contact).
  // `kinematics` turns it off: it only needs the geometry.
  bool check_initial_dynamics = true;
};

// Reads and validates a scene file, for any model. Throws InputError
// (message: "FILE: FIELD: why").
Scene load_scene(const std::filesystem::path& file, const LoadOptions& options = {});
// The same from JSON text; `file` names the scene in messages and resolves
// relative mesh paths.
Scene parse_scene(const std::string& text, const std::filesystem::path& file, const LoadOptions& options = {});

// Checks that q lies in the domains of patch1 of body 1 and patch2 of body 2
// and that both points are regular; otherwise InputError "WHERE: why", with
// `where` naming the source of q ("scene.json: contact.q", "--q").
void check_contact_point(const Scene& scene, int patch1, int patch2, const dynamics::Vec5<double>& q,
                         const std::string& where);

// The index of the body that object[key] names (required). InputError
// "FILE: PATH.KEY: no body named ..." listing the bodies.
int find_body(const Reader& in, const Scene& scene, const nlohmann::json& object, const std::string& path,
              const char* key);

// "FILE: FIELD: why", the prefix of every scene error.
std::string scene_error(const Scene& scene, const std::string& field, const std::string& why);

// InputError "FILE: model.type: ..." unless the scene's model is `wanted`:
// what a command that runs one model calls first.
void require_model(const Scene& scene, ModelType wanted, const std::string& command);

}  // namespace contactref::scenes
