#pragma once
// A quasi-rigid body (Pauly et al. Sections 3 and 5): a point-sampled surface
// in the body's frame with what its contacts need, computed once for its
// fixed sampling: the MLS surface and k-d tree, the nodal areas and spacings
// of its Shepard kernels, the clustering hierarchy; and its material.
#include <memory>
#include <string>

#include "reference/quasi_rigid/cluster_hierarchy.hpp"
#include "reference/quasi_rigid/mls_surface.hpp"
#include "reference/quasi_rigid/sampled_response.hpp"

namespace contactref::quasi_rigid {

struct Material {
  double E = 0;   // Young's modulus (Pa); 0: rigid
  double nu = 0;  // Poisson's ratio, in [0, 0.5)

  // (1 - nu^2) / (pi E) = (1 - nu) / (2 pi G), Eq. 1's prefactor (m^2/N); 0
  // for a rigid body.
  double compliance() const;
  // InputError ("WHERE: ...") unless E is finite and >= 0 and nu in [0, 0.5).
  void check(const std::string& where) const;
};

struct BodyOptions {
  MlsOptions mls;
  SampledShepard shepard;
  ClusterOptions clusters;
};

class QuasiRigidBody {
 public:
  // InputError: the samples' (check_samples), the material's, the options'.
  QuasiRigidBody(SurfaceSamples samples, const Material& material, const BodyOptions& options = {});

  // The same sampled surface (shared, not recomputed) in another material.
  QuasiRigidBody with_material(const Material& material) const;

  const std::string& name() const { return geometry_->surface.samples().name; }
  const Material& material() const { return material_; }
  const MlsSurface& surface() const { return geometry_->surface; }
  const SurfaceSampling& sampling() const { return geometry_->sampling; }
  const ClusterHierarchy& hierarchy() const { return geometry_->hierarchy; }

  // Section 4.1's nearest-sample signed distance (x - r) . n_r of a point in
  // the body's frame (m, negative inside), over the sampled surface: a point
  // whose offset from its nearest sample r along r's tangent plane exceeds
  // r's spacing lies past an open patch's rim or a hole, or beside a convex
  // edge, where r's plane does not bound the body (a disc's plane extended
  // past its rim would put half of space inside it). There it is outside, at
  // its distance |x - r| from the sample. InputError: x not finite.
  SampleDistance nearest_sample_distance(const Eigen::Vector3d& x_body) const;

 private:
  struct Geometry {
    Geometry(SurfaceSamples samples, const BodyOptions& options);
    MlsSurface surface;
    SurfaceSampling sampling;  // refers to surface
    ClusterHierarchy hierarchy;
  };
  QuasiRigidBody(std::shared_ptr<const Geometry> geometry, const Material& material);

  std::shared_ptr<const Geometry> geometry_;
  Material material_;
};

}  // namespace contactref::quasi_rigid
