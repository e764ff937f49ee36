// 6D frictional contact (Bouchard et al. Sections 3-5; reference/
// volume_contact/volume_world.hpp): a tall box (0.1 x 0.1 x 0.4 m, 2 kg)
// pushed sideways on a floor with mu = 0.6, once with the one 6D contact per
// pair and once with point contacts at the corners of its contact region.
// A box pushed at its centre of mass tips when the friction's moment about the
// front edge exceeds the weight's: here f = mu m g acts 0.2 m below the centre
// and the weight 0.05 m behind the edge, mu h/2 = 0.12 > w/2 = 0.05, so a box
// sliding fast enough tips forward (Algorithm 1: its centre of pressure leaves
// the patch and the joint becomes a point contact at the front edge, Section
// 5.5). Checks: both models tip it forward (it turns about y by more than
// 0.05 rad within 0.2 s) and neither lets it sink (its lowest point stays
// within 1 mm of the floor). Exit 1 if one fails.
#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <memory>

#include "core/mesh_io.hpp"
#include "reference/volume_contact/volume_world.hpp"

namespace vc = contactref::volume_contact;

contactref::PolygonSoup box(const char* name, double hx, double hy, double hz, double z0) {
  std::vector<Eigen::Vector3d> v;
  for (int k = 0; k < 8; ++k) v.emplace_back(k & 1 ? hx : -hx, k & 2 ? hy : -hy, (k & 4 ? hz : -hz) + z0);
  return contactref::polygon_soup(name, v, {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}});
}

int main() {
  const double mu = 0.6, hz = 0.2;
  int failures = 0;
  for (const vc::ContactModel model : {vc::ContactModel::kVolume6d, vc::ContactModel::kPointContact}) {
    vc::RigidBody floor;
    floor.name = "floor";
    floor.shape = std::make_shared<const vc::BodyShape>(box("floor", 5, 5, 0.5, -0.5));
    floor.ground_w = contactref::robust_geometry::HalfSpace{Eigen::Vector3d::UnitZ(), 0};
    floor.friction = mu;
    vc::RigidBody block;
    block.name = "block";
    block.shape = std::make_shared<const vc::BodyShape>(box("block", 0.05, 0.05, hz, 0));
    block.mass = 2;
    block.I_com_b = vc::uniform_solid(block.shape->triangles, block.mass).mass.I_com_b;
    block.friction = mu;
    block.x_w = {0, 0, hz};
    block.v_w = {3, 0, 0};
    vc::WorldOptions options;
    options.model = model;
    options.time_step = 1e-3;
    options.target_volume = 1e-8;  // m^3: 1 um over the 0.01 m^2 face
    vc::VolumeWorld world({floor, block}, options);
    double lowest = 0;
    while (world.time() < 0.2) {
      world.step();
      const vc::RigidBody& b = world.bodies()[1];
      for (const Eigen::Vector3d& x : b.shape->triangles.vertices) lowest = std::min(lowest, (b.x_w + b.R_w_b() * x).z());
    }
    const vc::RigidBody& b = world.bodies()[1];
    const double pitch = std::atan2(-b.R_w_b()(2, 0), b.R_w_b()(2, 2));  // the box's z axis leaning forward (+x)
    std::printf("%-14s after 0.2 s: x = %.4f m, forward tilt %.4f rad, lowest point %.2e m\n", vc::to_string(model),
                b.x_w.x(), pitch, lowest);
    if (!(pitch > 0.05)) ++failures;
    if (lowest < -1e-3) ++failures;
  }
  std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
