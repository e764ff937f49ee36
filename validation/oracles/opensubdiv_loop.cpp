#include "validation/oracles/opensubdiv_loop.hpp"

#include <opensubdiv/bfr/refinerSurfaceFactory.h>
#include <opensubdiv/bfr/surface.h>
#include <opensubdiv/far/topologyDescriptor.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace contactref::oracles {

namespace Bfr = OpenSubdiv::Bfr;
namespace Far = OpenSubdiv::Far;
namespace Sdc = OpenSubdiv::Sdc;

namespace {

// Points are three contiguous doubles (x, y, z), in the mesh and in the
// patch-point arrays alike.
const Bfr::Surface<double>::PointDescriptor kXyz(3);

std::unique_ptr<Far::TopologyRefiner> loop_refiner(const surfaces::TriangleMesh& mesh,
                                                   const std::vector<int>& face_vertices) {
  const std::vector<int> vertices_per_face(mesh.faces.size(), 3);
  Far::TopologyDescriptor descriptor;
  descriptor.numVertices = int(mesh.vertices.size());
  descriptor.numFaces = int(mesh.faces.size());
  descriptor.numVertsPerFace = vertices_per_face.data();
  descriptor.vertIndicesPerFace = face_vertices.data();
  // Sdc's Loop vertex rule is beta(N) = (5/8 - (3/8 + cos(2 pi / N) / 4)^2) / N
  // (Sdc::Scheme<SCHEME_LOOP>), as ours; it has no option. The only option that
  // matters for a smooth mesh is the boundary rule: VTX_BOUNDARY_NONE leaves a
  // face at a boundary without a limit surface, so that an open mesh is
  // refused rather than evaluated with boundary rules ours does not have.
  Sdc::Options scheme_options;
  scheme_options.SetVtxBoundaryInterpolation(Sdc::Options::VTX_BOUNDARY_NONE);
  using Factory = Far::TopologyRefinerFactory<Far::TopologyDescriptor>;
  std::unique_ptr<Far::TopologyRefiner> refiner(
      Factory::Create(descriptor, Factory::Options(Sdc::SCHEME_LOOP, scheme_options)));
  if (!refiner) throw InputError("OpenSubdiv refused the mesh topology");
  return refiner;
}

void check_face(int face, int face_count) {
  if (face < 0 || face >= face_count) {
    throw InputError("OpenSubdiv peer: face " + std::to_string(face) + " out of range 0.." +
                     std::to_string(face_count - 1));
  }
}

}  // namespace

struct OpenSubdivLoopEvaluator::Impl {
  std::vector<Bfr::Surface<double>> surfaces;
  std::vector<std::vector<double>> patch_points;  // per face, kXyz
};

OpenSubdivLoopEvaluator::OpenSubdivLoopEvaluator(const surfaces::TriangleMesh& mesh) : impl_(std::make_unique<Impl>()) {
  std::vector<int> face_vertices;
  face_vertices.reserve(3 * mesh.faces.size());
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    for (int vertex : mesh.faces[f]) {
      if (vertex < 0 || std::size_t(vertex) >= mesh.vertices.size()) {
        throw InputError("OpenSubdiv peer: face " + std::to_string(f) + " has vertex index " + std::to_string(vertex) +
                         ", outside 0.." + std::to_string(int(mesh.vertices.size()) - 1));
      }
      face_vertices.push_back(vertex);
    }
  }
  const std::unique_ptr<Far::TopologyRefiner> refiner = loop_refiner(mesh, face_vertices);

  std::vector<double> mesh_points;
  mesh_points.reserve(3 * mesh.vertices.size());
  for (const Vec3<double>& p : mesh.vertices) mesh_points.insert(mesh_points.end(), {p.x(), p.y(), p.z()});

  // Two levels of adaptive refinement around extraordinary vertices (Bfr's
  // default, stated so that the exact region described in the header holds).
  Bfr::SurfaceFactory::Options factory_options;
  factory_options.SetApproxLevelSmooth(2);
  const Bfr::RefinerSurfaceFactory<> factory(*refiner, factory_options);
  impl_->surfaces.resize(mesh.faces.size());
  impl_->patch_points.resize(mesh.faces.size());
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    Bfr::Surface<double>& surface = impl_->surfaces[f];
    if (!factory.InitVertexSurface(int(f), &surface)) {
      throw InputError("OpenSubdiv peer: face " + std::to_string(f) +
                       " has no limit surface (is it at a boundary? the mesh must be closed)");
    }
    impl_->patch_points[f].resize(3 * std::size_t(surface.GetNumPatchPoints()));
    surface.PreparePatchPoints(mesh_points.data(), kXyz, impl_->patch_points[f].data(), kXyz);
  }
}

OpenSubdivLoopEvaluator::~OpenSubdivLoopEvaluator() = default;
OpenSubdivLoopEvaluator::OpenSubdivLoopEvaluator(OpenSubdivLoopEvaluator&&) noexcept = default;
OpenSubdivLoopEvaluator& OpenSubdivLoopEvaluator::operator=(OpenSubdivLoopEvaluator&&) noexcept = default;

int OpenSubdivLoopEvaluator::face_count() const { return int(impl_->surfaces.size()); }

bool OpenSubdivLoopEvaluator::is_regular(int face) const {
  check_face(face, face_count());
  return impl_->surfaces[std::size_t(face)].IsRegular();
}

OpenSubdivJet OpenSubdivLoopEvaluator::evaluate(int face, double u, double v) const {
  check_face(face, face_count());
  if (!(u >= 0 && v >= 0 && u + v <= 1)) {
    std::ostringstream os;
    os << "OpenSubdiv peer: (u, v) = (" << u << ", " << v << ") is outside the unit triangle";
    throw InputError(os.str());
  }
  const double uv[2] = {u, v};
  double d[6][3];
  impl_->surfaces[std::size_t(face)].Evaluate(uv, impl_->patch_points[std::size_t(face)].data(), kXyz, d[0], d[1], d[2],
                                              d[3], d[4], d[5]);
  const auto vec = [](const double* p) { return Vec3<double>(p[0], p[1], p[2]); };
  return {vec(d[0]), vec(d[1]), vec(d[2]), vec(d[3]), vec(d[4]), vec(d[5])};
}

}  // namespace contactref::oracles
