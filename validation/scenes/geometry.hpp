#pragma once
// The geometry of a scene body (the JSON is documented in scene.hpp): a
// parametric surface (the smooth model's), a polyhedron (a mesh file, a box or
// a prism) or a point cloud with normals (the quasi-rigid model's). Read and
// validated here, built into the models' objects, with the mass properties of
// a uniform density where the geometry encloses a volume.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/mesh_io.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "reference/surfaces/patch_complex.hpp"
#include "reference/surfaces/transformed_patch.hpp"
#include "robust_geometry/polyhedron.hpp"
#include "validation/scenes/json_reader.hpp"

namespace contactref::scenes {

enum class GeometryKind { kSurface, kPolyhedron, kPoints };

// A parametric surface as read, before it is built (twice when a density
// moves it to its centre of mass).
struct SurfaceSpec {
  surfaces::SceneTransform<double> transform;
  bool has_transform = false;
  double radius = 0;
  Vec3<double> radii = Vec3<double>::Zero();  // ellipsoid (a, b, c); torus (R, r, -)
  double k1 = 0, k2 = 0;
  std::array<Vec3<double>, 16> control{};
  surfaces::TriangleMesh triangles;  // loop
};

struct GeometrySpec {
  std::string type;  // "plane", ..., "loop", "mesh", "box", "prism", "points"
  GeometryKind kind = GeometryKind::kSurface;
  std::filesystem::path file;  // loop, mesh, points: the file, resolved against the scene's folder
  SurfaceSpec surface;         // kSurface
  PolygonSoup soup;            // kPolyhedron: the faces, in body coordinates as given
  PointCloud points;           // kPoints: with a normal per point
  bool encloses_volume() const;
};

// Reads `value` (at JSON path `path`) as a geometry. Relative file names are
// resolved against `scene_dir`. InputError "FILE: PATH: why".
GeometrySpec read_geometry(const Reader& in, const nlohmann::json& value, const std::string& path,
                           const std::filesystem::path& scene_dir);

// The built geometry of a body, in body coordinates.
struct BodyGeometry {
  // kSurface: `complex` points to loop->complex() or to own_complex.
  std::unique_ptr<surfaces::LoopSurface<double>> loop;
  std::unique_ptr<surfaces::PatchComplex<double>> own_complex;
  const surfaces::PatchComplex<double>* complex = nullptr;
  std::optional<robust_geometry::Polyhedron> polyhedron;  // kPolyhedron
  PointCloud points;                                       // kPoints
};

// Builds spec moved by -shift (the centre of mass where a density gave it).
// InputError at `path` if the geometry cannot be built (a degenerate surface,
// a polyhedron that is not a closed manifold solid).
void build_geometry(const Reader& in, const GeometrySpec& spec, const Vec3<double>& shift, const std::string& path,
                    BodyGeometry& out);

// Uniform-density mass properties of a geometry that encloses a volume:
// volume (m^3), centre of mass (m, body coordinates as given) and inertia
// about it per unit density (m^5). Surfaces: surfaces::mass_properties;
// polyhedra: their moments (robust_geometry, Bouchard et al. Eqs. 14-16).
struct VolumeProperties {
  double volume = 0;
  Vec3<double> centroid = Vec3<double>::Zero();
  Mat3<double> inertia_per_density = Mat3<double>::Zero();
};
VolumeProperties volume_properties(const GeometrySpec& spec, const BodyGeometry& built);

}  // namespace contactref::scenes
