#pragma once
// The exact intersection moments of two polyhedron files (OFF or OBJ,
// validated by robust_geometry/polyhedron.hpp) with B placed in A's frame by
// `pose_b` ("tx,ty,tz,rx,ry,rz": translation (m), rotation vector (rad);
// empty: the identity), for `geometry intersect` and `volume-contact patch`.
#include <string>

#include "robust_geometry/intersection_volume.hpp"

namespace contactref::cli {

robust_geometry::IntersectionMoments intersect_files(const std::string& a, const std::string& b,
                                                     const std::string& pose_b);

}  // namespace contactref::cli
