#pragma once
// Scenes: the JSON files read by `contactref simulate` and `contactref
// kinematics` (Kry & Pai's single continuous contact between a free body 1 and
// a fixed body 2). SI units throughout: m, kg, s, N, radians.
//
// {
//   "name": "bowl",                  optional string; default: the file name without
//                                    extension. Names the default output folder.
//   "description": "...",            optional free text (JSON has no comments)
//   "gravity": [0, 0, -9.81],        optional, m/s^2, world frame; default [0, 0, -9.81]
//   "bodies": [ BODY, BODY ],        required, exactly two (one free, one fixed)
//   "contact": CONTACT,              required
//   "friction": {"mu": 0},           optional; mu (dimensionless) must be 0 in this
//                                    version (friction comes with a later issue)
//   "integrator": INTEGRATOR,        optional; defaults below
//   "duration": 3.0,                 optional, s, >= 0; default 1
//   "output": {"interval": 0.01}     optional; s between trajectory rows, >= 0 (0: every
//                                    accepted step); default 0.01
// }
//
// BODY:
//   "name": "top"                    required, non-empty, unique
//   "surface": SURFACE               required
//   "fixed": false                   optional boolean; default false
//   free body (fixed false): its frame is at its centre of mass, and either
//     "mass": 5                      kg, > 0, together with
//     "inertia": [[..3], [..3], [..3]]  kg m^2, about the centre of mass in body axes,
//                                    symmetric positive definite, principal moments obeying
//                                    the triangle inequality; the surface is given in
//                                    these body coordinates;
//   or
//     "density": 1000                kg/m^3, uniform, > 0, for a closed surface (loop,
//                                    sphere, ellipsoid, torus): mass and inertia are
//                                    computed (surfaces::mass_properties) and the surface
//                                    is SHIFTED by minus its centre of mass, so that the
//                                    body origin is the centre of mass. The shift is kept
//                                    in SceneBody::com_shift and reported by `simulate`.
//   fixed body (fixed true): no mass, inertia or density;
//     "pose": {"rotate": [angle, [ax, ay, az]], "offset": [x, y, z]}
//                                    optional: E_w_b, the body's pose in the world,
//                                    x_w = R x_b + offset (angle in radians about the axis);
//                                    default identity.
//
// SURFACE ("type" required; "transform" optional for every type):
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
//                                              mesh (OBJ or OFF; a relative path is resolved
//                                              against the scene file's folder), one patch per face
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
//
// CONTACT:
//   "body1": "top", "body2": "floor" required: body1 free, body2 fixed
//   "patch1": 0, "patch2": 0         optional patch (face) indices; default 0
//   "q": [s, t, u, v, psi]           required: parameters of the contact point on patch1
//                                    (s, t) and patch2 (u, v), and the angle psi (rad)
//                                    between the contact frames (Kry & Pai Eq. 7-8). Chart
//                                    parameters are in the chart's units (radians for the
//                                    ellipsoid and torus angles, m for the plane's u, v;
//                                    dimensionless for bezier [0, 1]^2 and for loop faces,
//                                    the unit triangle (0,0), (1,0), (0,1))
//   "qdot": [..5]                    optional, their rates (the same units per second);
//                                    default zeros
//   q must lie in both patch domains at regular points; at load the dynamics are
//   evaluated once: conforming contact (H^T M H singular) and a negative initial normal
//   force (the bodies would separate at once) are rejected.
//
// INTEGRATOR:
//   "type": "rk4" | "dormand-prince" optional; default "rk4"
//   "h_max": 0.016, "h_min": 0.001   s, 0 < h_min <= h_max; defaults 0.016 and 0.001; h_min at
//                                    least 2^10 eps duration (dynamics::min_resolvable_step),
//                                    or the steps would not move the clock
//   "tolerance": 1e-10               dormand-prince only, > 0: per-step error bound; default 1e-10
//   "boundary": "integrated" | "linear"  how a patch-boundary crossing is located
//                                    (dynamics::BoundaryLocation); default "integrated"
//
// Every error is an InputError whose message starts with the scene file and the
// JSON path of the field: `scene.json: bodies[0].surface.type: unknown surface
// type "cone" (known: ...)`. Unknown fields, duplicate keys, wrong types (a
// string or null where a number is expected), wrong array lengths and
// non-finite numbers are errors.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/dynamics/contact_simulation.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/patch_complex.hpp"

namespace contactref::scenes {

struct SceneBody {
  std::string name;
  std::string surface_type;  // "plane", "sphere", ..., "loop"
  bool fixed = false;
  // Free bodies: mass (kg) and inertia about the centre of mass, body axes (kg m^2).
  double mass = 0;
  Mat3<double> I_com = Mat3<double>::Zero();
  // From "density": the density (kg/m^3, else 0), the enclosed volume (m^3) and
  // the centre of mass of the surface as given (after its transform), in m: the
  // surface was moved by -com_shift so that the body origin is the centre of mass.
  double density = 0;
  double volume = 0;
  Vec3<double> com_shift = Vec3<double>::Zero();
  // Fixed bodies: the pose in the world (E_w_b).
  Mat4<double> pose = Mat4<double>::Identity();
  std::filesystem::path mesh;  // loop: the mesh file, resolved

  // The surface. `complex` points to loop->complex() or to own_complex.
  std::unique_ptr<surfaces::LoopSurface<double>> loop;
  std::unique_ptr<surfaces::PatchComplex<double>> own_complex;
  const surfaces::PatchComplex<double>* complex = nullptr;

  int patch_count() const { return int(complex->patches.size()); }
  const surfaces::Patch<double>& patch(int index) const { return *complex->patches[std::size_t(index)]; }
};

struct Scene {
  std::filesystem::path file;  // as given
  std::string name;
  std::string description;
  Vec3<double> gravity = Vec3<double>(0, 0, -9.81);
  std::vector<SceneBody> bodies;
  int body1 = 0, body2 = 1;  // indices into bodies: the free and the fixed body
  dynamics::ContactState<double> initial;
  double mu = 0;
  dynamics::SimulationOptions<double> options;

  const SceneBody& free_body() const { return bodies[std::size_t(body1)]; }
  const SceneBody& fixed_body() const { return bodies[std::size_t(body2)]; }
  // The system for dynamics::simulate; it points into this scene.
  dynamics::ContactSystem<double> system() const;
};

struct LoadOptions {
  // Evaluate the dynamics at the initial state (conforming contact, negative
  // normal force). `kinematics` turns it off: it only needs the geometry.
  bool check_initial_dynamics = true;
};

// Reads and validates a scene file. Throws InputError (message: "FILE: FIELD: why").
Scene load_scene(const std::filesystem::path& file, const LoadOptions& options = {});
// The same from JSON text; `file` names the scene in messages and resolves
// relative mesh paths.
Scene parse_scene(const std::string& text, const std::filesystem::path& file, const LoadOptions& options = {});

// Checks that q lies in the domains of patch1 of body 1 and patch2 of body 2
// and that both points are regular; otherwise InputError "WHERE: why", with
// `where` naming the source of q ("scene.json: contact.q", "--q").
void check_contact_point(const Scene& scene, int patch1, int patch2, const dynamics::Vec5<double>& q,
                         const std::string& where);

// "FILE: FIELD: why", the prefix of every scene error.
std::string scene_error(const Scene& scene, const std::string& field, const std::string& why);

}  // namespace contactref::scenes
