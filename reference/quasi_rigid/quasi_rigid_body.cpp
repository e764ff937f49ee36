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

QuasiRigidBody::QuasiRigidBody(SurfaceSamples samples, const Material& material, const BodyOptions& options)
    : material_(material) {
  material.check(samples.name);
  surface_ = std::make_unique<MlsSurface>(std::move(samples), options.mls);
  sampling_ = std::make_unique<SurfaceSampling>(*surface_, options.shepard);
  hierarchy_ = std::make_unique<ClusterHierarchy>(surface_->samples().points, options.clusters);
}

}  // namespace contactref::quasi_rigid
