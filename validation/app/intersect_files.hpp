#pragma once
// The exact intersection moments of two polyhedron files (OFF or OBJ,
// validated by robust_geometry/polyhedron.hpp) with B placed in A's frame by
// `pose_b` ("tx,ty,tz,rx,ry,rz": translation (m), rotation vector (rad);
// empty: the identity), for `geometry intersect` and `volume-contact patch`;
// and the same by rays (robust_geometry/raycast_moments.hpp, `geometry
// intersect --fast`), on a grid of `cells` per side.
#include <string>

#include "robust_geometry/intersection_volume.hpp"
#include "robust_geometry/raycast_moments.hpp"

namespace contactref::cli {

robust_geometry::IntersectionMoments intersect_files(const std::string& a, const std::string& b,
                                                     const std::string& pose_b);

robust_geometry::RaycastMoments intersect_files_fast(const std::string& a, const std::string& b,
                                                     const std::string& pose_b, int cells);

}  // namespace contactref::cli
