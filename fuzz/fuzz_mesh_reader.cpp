// libFuzzer target: both mesh readers on one format (compiled twice, as
// fuzz_off and fuzz_obj): robust_geometry's PolygonSoup into a validated
// Polyhedron, and reference/surfaces' TriangleMesh with its geometry check.
// Bad input must end in an input error (std::invalid_argument) or a
// computation error; anything else escapes and is a finding.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz/cli_harness.hpp"
#include "reference/surfaces/triangle_mesh.hpp"
#include "robust_geometry/polyhedron.hpp"

#ifdef CONTACTREF_FUZZ_OBJ
#define CONTACTREF_PARSE parse_obj
static const char* const kName = "fuzz.obj";
#else
#define CONTACTREF_PARSE parse_off
static const char* const kName = "fuzz.off";
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(contactref::fuzz::as_text(data, size));
  try {
    const contactref::robust_geometry::Polyhedron solid(contactref::robust_geometry::CONTACTREF_PARSE(text, kName));
  } catch (const std::invalid_argument&) {
  } catch (const contactref::robust_geometry::GeometryComputationError&) {
  }
  try {
    const auto mesh = contactref::surfaces::CONTACTREF_PARSE(text, kName);
    contactref::surfaces::check_mesh_geometry(mesh, kName);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
