#pragma once
// An independent oracle for the constraint of a single-contact simulation:
// where two bodies' smooth surfaces, placed in the world by their poses, come
// closest (or, when they overlap, penetrate deepest), found from the poses
// alone, without contact coordinates.
//
// The pair: points p1 = E_w_1 c1(x1) of surface 1 and p2 = E_w_2 c2(x2) of
// surface 2 with
//   (p1 - p2) . d2_s = (p1 - p2) . d2_t = 0   (p2 is the foot of p1 on surface 2)
//   N2 . d1_s = N2 . d1_t = 0                 (surface 1 is parallel to surface 2 there)
// (d = world derivatives, N2 = d2_s x d2_t): the critical points of the height
// of surface 1 above surface 2, h(x1) = (p1 - p2) . n2, whose gradient is
// (d1_s . n2, d1_t . n2). Unlike the stationarity of |p1 - p2|^2, this system
// stays regular where the surfaces touch with different curvatures, so
// Newton's method converges quadratically there. The seeds are the lowest
// points of a grid sampled on every patch of surface 1 over the nearest grid
// points of surface 2 (never the simulation's contact coordinates); among the
// seeds' converged pairs inside their patches the lowest is the answer.
//
// Reported: the signed distance (p1 - p2) . n2 (n2 the outward unit normal of
// surface 2; negative: surface 1 penetrates surface 2) and the angle between
// n1 and -n2 (0 for outward normals facing each other, pi for a surface whose
// normals point inward), with the round-off bounds of both.
#include <vector>

#include "reference/surfaces/patch_complex.hpp"

namespace contactref::oracles {

struct SurfaceSeparation {
  double signed_distance = 0;  // m
  double normal_angle = 0;     // rad, in [0, pi]
  int patch1 = -1, patch2 = -1;
  surfaces::Vec2<double> x1, x2;   // the pair's parameters in those patches
  Vec3<double> p1_w, p2_w;         // the pair in the world
  // Round-off bounds of the two numbers (surface_roundoff.hpp), with L =
  // |c| + |c_s| + |c_t| in body coordinates for each patch (the point and the
  // extent of a parameter unit, which bound the control points an evaluation
  // combines) and |o| its pose's translation: the distance is off by at most
  // 2 x 256 eps (L1 + |o1| + L2 + |o2|), each normal by 2 x 256 eps L over
  // min(|d_s|, |d_t|) sin(d_s, d_t).
  double distance_roundoff = 0;  // m
  double angle_roundoff = 0;     // rad
};

// Built once per pair of surfaces (the seed grids are sampled in body
// coordinates), then measured at any pair of poses. The complexes are
// referenced and must outlive the oracle.
class SurfaceSeparationOracle {
 public:
  // `resolution`: each polygon domain is fanned into triangles, each sampled
  // at the centroids of its resolution^2 sub-triangles' upward half; a chart
  // at resolution x resolution cell centres. InputError for a chart with an
  // unbounded, non-periodic parameter (it cannot be sampled) or a resolution
  // below 1.
  SurfaceSeparationOracle(const surfaces::PatchComplex<double>& surface1,
                          const surfaces::PatchComplex<double>& surface2, int resolution = 12);

  // ComputationError when no seed converges to a pair inside its patches.
  SurfaceSeparation operator()(const Mat4<double>& E_w_1, const Mat4<double>& E_w_2) const;

  struct Sample {
    int patch = 0;
    surfaces::Vec2<double> x;
    Vec3<double> point, normal;  // body coordinates; the normal is unit and outward
  };

 private:
  const surfaces::PatchComplex<double>* surface1_;
  const surfaces::PatchComplex<double>* surface2_;
  std::vector<Sample> samples1_, samples2_;
};

}  // namespace contactref::oracles
