// The modules without a 50-digit instantiation, which `contactref audit`
// lists with the reason and the independent checks that hold them instead.
#include "validation/registry.hpp"

namespace contactref::validation {

const std::vector<AuditDoubleOnly>& audit_double_only() {
  static const std::vector<AuditDoubleOnly> list = {
      {"quasi_rigid.responses",
       "the Boussinesq and volume-preserving responses (sampled_response, response_matrix), the displacement field, "
       "the MLS surface and the multi-level solve are double only: they run over 10^3 to 10^5 samples on oneTBB's "
       "threads with Eigen's vectorised exp, where a 50-digit instantiation would take hours on the foot. Held "
       "instead by closed forms: Johnson's uniform pressure on a disk and the flat punch (response_matrix_test), the "
       "planar quadrature of Eq. 8 (sampled_response_test), Hertz's contact radius and pressure at four samplings "
       "(hertz-convergence), the vectorised kernel against the scalar one; their LCP solvers are audited above "
       "(quasi_rigid.lcp_*)"},
      {"volume_contact",
       "Bouchard et al.'s 6D model (Algorithm 1's wrench projection, the ellipse patch of Appendix A, the support "
       "region, block PGS) is double only: its inputs are intersection moments rounded once to double from exact "
       "geometry, and its routines are 6x6 projections and solves. Held instead by the uniform-pressure closed forms "
       "of the ellipse and the support region (six-d-departures), the block Gauss-Seidel fixed point to a "
       "projection residual of 1e-15 and the Coulomb slide's stopping time and distance (octagon-convergence), and "
       "MuJoCo on the same scenes"},
      {"robust_geometry",
       "exact, not 50 digits: the intersection volumes, moments and their gradient, the Brep-index and Bouma & "
       "Vanecek's contact regions are computed with CGAL's exact kernels (Epeck, Nef polyhedra), a referee stronger "
       "than any fixed precision; the double half-space moments are audited against them (geometry.halfspace.*)"},
  };
  return list;
}

}  // namespace contactref::validation
