#include "validation/scenes/volume_contact_scene.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <cmath>
#include <memory>
#include <numbers>

#include "core/errors.hpp"
#include "robust_geometry/contact_regions.hpp"
#include "validation/scenes/geometry.hpp"
#include "validation/scenes/scene.hpp"

namespace contactref::scenes {
namespace {

using json = nlohmann::json;
namespace vc = contactref::volume_contact;

// The ground's slab: a square of edge `size` (m), 1 m thick, its top face on
// the plane z = 0 of the body frame (the point model's contacts with the
// ground are found on that face).
PolygonSoup ground_slab(double size, const std::string& name) {
  PolygonSoup slab = box_soup(Vec3<double>(size, size, 1), name);
  for (Eigen::Vector3d& x : slab.vertices) x.z() -= 0.5;  // exact: z = +-0.5 become 0 and -1
  return slab;
}

// The shape of a polyhedral body: the polyhedron the scene built (already
// moved to the centre of mass), not the soup as read moved again.
std::shared_ptr<const vc::BodyShape> polyhedral_shape(const SceneBody& body) {
  const robust_geometry::Polyhedron& p = *body.geometry.polyhedron;
  return std::make_shared<const vc::BodyShape>(polygon_soup(body.name, p.vertices(), p.faces()));
}

}  // namespace

VolumeContactModel read_volume_contact_model(const Reader& in, const json& model, bool six_d) {
  std::vector<std::string> allowed = {"type",        "time_step",      "mu",         "target_volume", "stabilisation",
                                      "tolerance",   "max_iterations", "warm_start", "thin",
                                      "ground_size", "joint_elimination", "exact_moments"};
  if (six_d) {
    allowed.insert(allowed.end(),
                   {"linear_compliance", "angular_compliance", "patch", "spin_resolve", "normal_differences"});
  } else {
    allowed.push_back("touch_tolerance");
  }
  in.fields(model, "model", allowed);
  VolumeContactModel m;
  if (const json* x = Reader::optional(model, "time_step")) m.time_step = in.positive(*x, "model.time_step");
  if (const json* x = Reader::optional(model, "mu")) m.mu = in.non_negative(*x, "model.mu");
  if (const json* x = Reader::optional(model, "target_volume"))
    m.target_volume = in.non_negative(*x, "model.target_volume");
  if (const json* x = Reader::optional(model, "stabilisation")) {
    const std::string direction = in.string(*x, "model.stabilisation");
    if (direction == "volume-gradient")
      m.stabilisation = vc::StabilisationDirection::kVolumeGradient;
    else if (direction != "patch-normal")
      in.fail("model.stabilisation",
              fmt::format("unknown direction \"{}\" (known: patch-normal, volume-gradient)", direction));
  }
  if (const json* x = Reader::optional(model, "touch_tolerance"))
    m.touch_tolerance = in.positive(*x, "model.touch_tolerance");
  if (const json* x = Reader::optional(model, "linear_compliance"))
    m.linear_compliance = in.non_negative(*x, "model.linear_compliance");
  if (const json* x = Reader::optional(model, "angular_compliance"))
    m.angular_compliance = in.non_negative(*x, "model.angular_compliance");
  if (const json* x = Reader::optional(model, "tolerance")) m.tolerance = in.non_negative(*x, "model.tolerance");
  if (const json* x = Reader::optional(model, "max_iterations")) {
    m.max_iterations = in.integer(*x, "model.max_iterations");
    if (m.max_iterations < 1) in.fail("model.max_iterations", "must be at least 1");
  }
  if (const json* x = Reader::optional(model, "warm_start")) m.warm_start = in.boolean(*x, "model.warm_start");
  if (const json* x = Reader::optional(model, "thin")) {
    m.thin = in.number(*x, "model.thin");
    if (!(m.thin > 0 && m.thin < 1)) in.fail("model.thin", fmt::format("must lie in (0, 1), got {}", m.thin));
  }
  if (const json* x = Reader::optional(model, "ground_size")) m.ground_size = in.positive(*x, "model.ground_size");
  if (const json* x = Reader::optional(model, "joint_elimination"))
    m.joint_elimination = in.boolean(*x, "model.joint_elimination");
  if (const json* x = Reader::optional(model, "patch")) {
    const std::string patch = in.string(*x, "model.patch");
    if (patch == "ellipse")
      m.patch = vc::PatchRegion::kEllipse;
    else if (patch == "support")
      m.patch = vc::PatchRegion::kSupport;
    else
      in.fail("model.patch", fmt::format("unknown patch \"{}\" (known: ellipse, support)", patch));
  }
  if (const json* x = Reader::optional(model, "spin_resolve")) m.spin_resolve = in.boolean(*x, "model.spin_resolve");
  if (const json* x = Reader::optional(model, "normal_differences"))
    m.normal_differences = in.boolean(*x, "model.normal_differences");
  if (const json* x = Reader::optional(model, "exact_moments"))
    m.exact_moments = in.boolean(*x, "model.exact_moments");
  return m;
}

std::vector<vc::BilateralJoint> read_volume_contact_joints(const Reader& in, const json& joints, const Scene& scene) {
  if (!joints.is_array()) in.fail("joints", fmt::format("expected an array of joints, got {}", show(joints)));
  std::vector<vc::BilateralJoint> out;
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const json& joint = joints[k];
    const std::string path = Reader::index("joints", k);
    in.fields(joint, path, {"type", "body1", "body2", "anchor", "axis", "drive"});
    vc::BilateralJoint j;
    const std::string type = in.string(in.required(joint, path, "type"), path + ".type");
    if (type == "hinge")
      j.kind = vc::JointKind::kHinge;
    else if (type == "spherical")
      j.kind = vc::JointKind::kSpherical;
    else
      in.fail(path + ".type", fmt::format("unknown joint type \"{}\" (known: hinge, spherical)", type));
    j.a = find_body(in, scene, joint, path, "body1");
    j.b = find_body(in, scene, joint, path, "body2");
    const SceneBody& a = scene.bodies[std::size_t(j.a)];
    const SceneBody& b = scene.bodies[std::size_t(j.b)];
    if (j.a == j.b) in.fail(path + ".body2", "body1 and body2 must be different bodies");
    if (a.fixed && b.fixed) in.fail(path, fmt::format("bodies \"{}\" and \"{}\" are both fixed", a.name, b.name));
    const Eigen::Vector3d anchor_w = in.vec3(in.required(joint, path, "anchor"), path + ".anchor");
    j.anchor_a = a.E_w_b.rotation().transpose() * (anchor_w - a.E_w_b.translation());
    j.anchor_b = b.E_w_b.rotation().transpose() * (anchor_w - b.E_w_b.translation());
    const bool hinge = j.kind == vc::JointKind::kHinge;
    for (const char* field : {"axis", "drive"})
      if (!hinge && joint.contains(field))
        in.fail(Reader::child(path, field), "only a hinge has an axis and a drive");
    if (hinge) {
      const Eigen::Vector3d axis_w = in.vec3(in.required(joint, path, "axis"), path + ".axis");
      if (!(axis_w.norm() > 0)) in.fail(path + ".axis", "must be a non-zero vector");
      j.axis_a = a.E_w_b.rotation().transpose() * axis_w.normalized();
      j.axis_b = b.E_w_b.rotation().transpose() * axis_w.normalized();
    }
    if (const json* d = Reader::optional(joint, "drive")) {
      const std::string where = path + ".drive";
      in.fields(*d, where, {"stiffness", "damping", "angle"});
      if (const json* x = Reader::optional(*d, "stiffness")) j.drive.stiffness = in.non_negative(*x, where + ".stiffness");
      if (const json* x = Reader::optional(*d, "damping")) j.drive.damping = in.non_negative(*x, where + ".damping");
      if (const json* x = Reader::optional(*d, "angle")) {
        j.drive.angle = in.number(*x, where + ".angle");
        if (!(std::abs(j.drive.angle) <= std::numbers::pi))
          in.fail(where + ".angle", fmt::format("must lie in [-pi, pi], got {}", j.drive.angle));
      }
    }
    out.push_back(j);
  }
  return out;
}

std::vector<vc::RigidBody> volume_contact_bodies(const Scene& scene) {
  const VolumeContactModel& model = scene.volume_contact;
  std::vector<vc::RigidBody> bodies;
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const SceneBody& body = scene.bodies[k];
    const std::string path = Reader::index("bodies", k), where = path + ".geometry";
    const bool ground = body.geometry_type == "plane";
    if (ground && !body.fixed)
      throw InputError(scene_error(scene, path + ".fixed", "a plane is a ground: it must be fixed (\"fixed\": true)"));
    if (ground && body.spec.surface.has_transform)
      throw InputError(scene_error(scene, where + ".transform",
                                   fmt::format("the {} model places a plane by its pose only", to_string(scene.model))));
    if (!ground && body.kind != GeometryKind::kPolyhedron)
      throw InputError(scene_error(scene, where + ".type",
                                   fmt::format("the {} model takes mesh, box and prism geometries, and a fixed plane "
                                               "as the ground; not a {}",
                                               to_string(scene.model), body.geometry_type)));
    vc::RigidBody rigid;
    rigid.name = body.name;
    rigid.friction = model.mu;
    rigid.q_w_b = Eigen::Quaterniond(body.E_w_b.rotation()).normalized();
    rigid.x_w = body.E_w_b.translation();
    try {  // the simulator's own checks of the shape
      rigid.shape = ground ? std::make_shared<const vc::BodyShape>(ground_slab(model.ground_size, body.name))
                           : polyhedral_shape(body);
    } catch (const InputError& e) {
      throw InputError(scene_error(scene, where, e.what()));
    }
    if (ground) {
      // The half-space below the plane z = 0 of the body frame: normal R e_z,
      // through the frame's origin (world coordinates).
      const Eigen::Vector3d normal = body.E_w_b.rotation().col(2);
      rigid.ground_w = robust_geometry::HalfSpace{normal, normal.dot(rigid.x_w)};
    }
    if (!body.fixed) {
      rigid.mass = body.mass;
      rigid.I_com_b = body.I_com;
      rigid.v_w = body.v_w;
      rigid.omega_w = body.omega_w;
    }
    try {  // the simulator's checks of the body (its velocity's bound among them)
      vc::check_body(rigid);
    } catch (const InputError& e) {
      throw InputError(scene_error(scene, path, e.what()));
    }
    if (scene.model == ModelType::kPointContact) {  // the tolerance this body's edges can take
      try {
        robust_geometry::check_touch_tolerance(model.touch_tolerance, rigid.shape->polyhedron, rigid.shape->polyhedron,
                                               "touch_tolerance");
      } catch (const InputError& e) {
        throw InputError(scene_error(scene, "model.touch_tolerance", e.what()));
      }
    }
    bodies.push_back(std::move(rigid));
  }
  return bodies;
}

vc::WorldOptions volume_contact_options(const Scene& scene) {
  const VolumeContactModel& m = scene.volume_contact;
  vc::WorldOptions options;
  options.model = scene.model == ModelType::kVolume6d ? vc::ContactModel::kVolume6d : vc::ContactModel::kPointContact;
  options.time_step = m.time_step;
  options.gravity = scene.gravity;
  options.target_volume = m.target_volume;
  options.stabilisation = m.stabilisation;
  options.touch_tolerance = m.touch_tolerance;
  options.linear_compliance = m.linear_compliance;
  options.angular_compliance = m.angular_compliance;
  options.warm_start = m.warm_start;
  options.pgs.tolerance = m.tolerance;
  options.pgs.max_iterations = m.max_iterations;
  options.patch.thin = m.thin;
  options.patch.region = m.patch;
  options.pgs.eliminate_joints = m.joint_elimination;
  options.pgs.spin_resolve = m.spin_resolve;
  options.normal_differences = m.normal_differences;
  options.exact_moments = m.exact_moments;
  return options;
}

}  // namespace contactref::scenes
