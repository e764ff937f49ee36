// libFuzzer target: core's PLY and XYZ readers (parse_ply, parse_xyz) on the
// same bytes, and an XYZ cloud with normals as a quasi-rigid point-sampled
// surface. Bad input must end in contactref::InputError; anything else
// escapes and is a finding, and so is a soup or cloud that breaks what the
// readers promise (core/mesh_io.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/mesh_io.hpp"
#include "reference/quasi_rigid/cluster_hierarchy.hpp"
#include "reference/quasi_rigid/mls_surface.hpp"
#include "fuzz/cli_harness.hpp"

namespace {

using contactref::check_invariant;

bool all_finite(const std::vector<Eigen::Vector3d>& vectors) {
  for (const Eigen::Vector3d& v : vectors)
    if (!v.allFinite()) return false;
  return true;
}

void check_soup(const contactref::PolygonSoup& soup) {
  check_invariant(all_finite(soup.vertices) && all_finite(soup.normals), "parse_ply: the numbers are finite");
  check_invariant(soup.normals.empty() || soup.normals.size() == soup.vertices.size(),
                  "parse_ply: a normal per vertex");
  check_invariant(soup.vertex_lines.empty() || soup.vertex_lines.size() == soup.vertices.size(),
                  "parse_ply: a line per vertex, or none");
  check_invariant(soup.face_lines.empty() || soup.face_lines.size() == soup.faces.size(),
                  "parse_ply: a line per face, or none");
  for (const auto& face : soup.faces) {
    check_invariant(face.size() >= 3, "parse_ply: a face has at least 3 corners");
    for (int corner : face)
      check_invariant(corner >= 0 && std::size_t(corner) < soup.vertices.size(), "parse_ply: the corners are vertices");
  }
}

void check_cloud(const contactref::PointCloud& cloud) {
  check_invariant(!cloud.points.empty(), "parse_xyz: a cloud has points");
  check_invariant(all_finite(cloud.points) && all_finite(cloud.normals), "parse_xyz: the numbers are finite");
  check_invariant(cloud.normals.empty() || cloud.normals.size() == cloud.points.size(),
                  "parse_xyz: a normal per point");
  check_invariant(cloud.point_lines.size() == cloud.points.size(), "parse_xyz: a line per point");
  for (const Eigen::Vector3d& normal : cloud.normals)
    check_invariant(normal != Eigen::Vector3d::Zero(), "parse_xyz: no zero normal");
}

// A cloud with normals as a point-sampled surface (reference/quasi_rigid):
// the MLS projection, the signed distances and the clustering end in a finite
// answer or an InputError or ComputationError.
void check_surface(const contactref::PointCloud& cloud) {
  namespace qr = contactref::quasi_rigid;
  if (cloud.normals.empty()) return;
  try {
    const qr::MlsSurface surface(qr::surface_samples(cloud));
    const qr::ClusterHierarchy hierarchy(surface.samples().points);
    check_invariant(hierarchy.clusters()[0].count == static_cast<int>(cloud.points.size()),
                    "ClusterHierarchy: the root holds every sample");
    for (std::size_t i = 0; i < std::min<std::size_t>(cloud.points.size(), 4); ++i) {
      const Eigen::Vector3d x = surface.samples().points[i] + 0.5 * surface.samples().normals[i];
      check_invariant(std::isfinite(surface.nearest_sample_distance(x).distance) || !x.allFinite(),
                      "nearest_sample_distance: finite");
      const qr::MlsProjection p = surface.project(x);
      check_invariant(p.point.allFinite() && std::abs(p.normal.norm() - 1) < 1e-9, "MlsSurface::project: finite");
    }
  } catch (const contactref::InputError&) {
  } catch (const contactref::ComputationError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(contactref::fuzz::as_text(data, size));
  try {
    check_soup(contactref::parse_ply(bytes, "fuzz.ply"));
  } catch (const contactref::InputError&) {
  }
  try {
    const contactref::PointCloud cloud = contactref::parse_xyz(bytes, "fuzz.xyz");
    check_cloud(cloud);
    check_surface(cloud);
  } catch (const contactref::InputError&) {
  }
  return 0;
}
