#pragma once
// The tests' box: half-extents (hx, hy, hz) about the origin, named "box"
// (contactref::box_soup takes the edge lengths).
#include <Eigen/Core>

#include "core/mesh_io.hpp"

namespace contactref::test {

inline PolygonSoup box_soup(double hx, double hy, double hz) {
  return contactref::box_soup(2 * Eigen::Vector3d(hx, hy, hz), "box");
}

}  // namespace contactref::test
