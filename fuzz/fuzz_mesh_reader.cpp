// libFuzzer target: core's reader of one format (compiled once per format, as
// fuzz_off, fuzz_obj and fuzz_ply), then both consumers of its soup:
// robust_geometry's Polyhedron and reference/surfaces' Loop surface (its
// triangle mesh, topology and geometry checks). Bad input must end in an
// input error or a computation error; anything else escapes and is a finding.
#include <cstdint>
#include <string>

#include "core/mesh_io.hpp"
#include "fuzz/cli_harness.hpp"
#include "reference/surfaces/loop_surface.hpp"
#include "robust_geometry/polyhedron.hpp"

#if defined(CONTACTREF_FUZZ_OBJ)
#define CONTACTREF_PARSE parse_obj
static const char* const kName = "fuzz.obj";
#elif defined(CONTACTREF_FUZZ_PLY)
#define CONTACTREF_PARSE parse_ply
static const char* const kName = "fuzz.ply";
#else
#define CONTACTREF_PARSE parse_off
static const char* const kName = "fuzz.off";
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace contactref;
  PolygonSoup soup;
  try {
    soup = CONTACTREF_PARSE(std::string(fuzz::as_text(data, size)), kName);
  } catch (const InputError&) {
    return 0;
  }
  try {
    const robust_geometry::Polyhedron solid(soup);
  } catch (const InputError&) {
  } catch (const ComputationError&) {
  }
  // A Loop surface of more than a few dozen faces costs more than the reader
  // it tests; the topology and geometry checks run for any size.
  try {
    const surfaces::TriangleMesh mesh = surfaces::triangle_mesh(soup);
    if (mesh.faces.size() <= 64) {
      const surfaces::LoopSurface<double> surface(mesh, kName);
    } else {
      const surfaces::MeshTopology topology(mesh, kName);
      surfaces::check_mesh_geometry(mesh, kName);
    }
  } catch (const InputError&) {
  } catch (const ComputationError&) {
  }
  return 0;
}
