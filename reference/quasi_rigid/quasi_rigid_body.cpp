#include "reference/quasi_rigid/quasi_rigid_body.hpp"

#include <cmath>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

double Material::compliance() const { return E == 0 ? 0.0 : (1 - nu * nu) / (std::numbers::pi * E); }

void Material::check(const std::string& where) const {
  if (!(std::isfinite(E) && E >= 0 && nu >= 0 && nu < 0.5)) {
    std::ostringstream os;
    os << where << ": need a finite Young's modulus E >= 0 (0: rigid) and Poisson's ratio nu in [0, 0.5), got E = " << E
       << " Pa, nu = " << nu;
    throw InputError(os.str());
  }
}

QuasiRigidBody::Geometry::Geometry(SurfaceSamples samples, const BodyOptions& options)
    : surface(std::move(samples), options.mls),
      sampling(surface, options.shepard),
      hierarchy(surface.samples().points, options.clusters) {}

QuasiRigidBody::QuasiRigidBody(SurfaceSamples samples, const Material& material, const BodyOptions& options)
    : material_(material) {
  material.check(samples.name);
  geometry_ = std::make_shared<const Geometry>(std::move(samples), options);
}

QuasiRigidBody::QuasiRigidBody(std::shared_ptr<const Geometry> geometry, const Material& material)
    : geometry_(std::move(geometry)), material_(material) {
  material.check(name());
}

SampleDistance QuasiRigidBody::nearest_sample_distance(const Eigen::Vector3d& x_body) const {
  SampleDistance d = surface().nearest_sample_distance(x_body);
  if (d.distance > 0) return d;
  const auto r = static_cast<std::size_t>(d.sample);
  const Eigen::Vector3d offset = x_body - surface().samples().points[r];
  const Eigen::Vector3d tangential = offset - d.distance * surface().samples().normals[r];
  if (tangential.norm() > sampling().spacing()(d.sample)) {
    d.distance = offset.norm();
    d.off_surface = true;
  }
  return d;
}

QuasiRigidBody QuasiRigidBody::with_material(const Material& material) const { return {geometry_, material}; }

}  // namespace contactref::quasi_rigid
