#include "validation/audit/surfaces_audit.hpp"

#include "core/errors.hpp"
#include "reference/surfaces/bezier_patch.hpp"
#include "reference/surfaces/s_patch.hpp"
#include "validation/audit/precision_comparison.hpp"
#include "validation/build_info.hpp"
#include "validation/fixtures/rattleback_net.hpp"

namespace contactref::audit {
#if CONTACTREF_HAS_REAL50  // double against 50 digits: release build only (core/scalar.hpp)
namespace {

namespace su = contactref::surfaces;
using fixtures::Rng;

constexpr int kSurfaceSamples = 100;

template <class T>
const su::LoopSurface<T>& audit_mesh() {
  static const su::LoopSurface<T> surface(
      su::read_triangle_mesh(std::string(build_info::source_dir) + "/validation/fixtures/meshes/valences_3_to_10.obj"),
      "audit mesh");
  return surface;
}

// The first face of the audit mesh of the given kind.
int face_of_kind(su::LoopPatchKind kind) {
  const auto& surface = audit_mesh<double>();
  for (int f = 0; f < surface.face_count(); ++f)
    if (surface.kind(f) == kind) return f;
  throw InternalError("the audit mesh has no face of the requested kind");
}

// A point of the unit triangle, away from the corners.
auto triangle_point = [](Rng& rng) {
  const double u = fixtures::uniform(rng, 0.01, 0.97);
  return std::make_tuple(u, fixtures::uniform(rng, 0.01, 0.98 - u));
};

template <class Evaluate>
validation::AuditEntrySpec jet_entry(std::string name, std::string summary, std::uint64_t seed, Evaluate evaluate,
                                     double min_digits = 13) {
  return {std::move(name), std::move(summary),
          [seed, evaluate] { return compare_double_with_50_digits(kSurfaceSamples, seed, triangle_point, evaluate); },
          min_digits};
}

template <class T>
const su::BezierPatch<T>& audit_bezier() {
  static const su::BezierPatch<T> patch(fixtures::rattleback_net<T>());
  return patch;
}

template <class T>
const su::SPatch<T>& audit_s_patch() {
  static const su::LoopSPatchReplacement<T> replacement = [] {
    static const su::LoopSurface<T> surface(
        su::read_triangle_mesh(std::string(build_info::source_dir) + "/validation/fixtures/meshes/icosphere1.obj"),
        "icosphere1");
    return su::replace_loop_vertex(surface, 0);
  }();
  return *replacement.s_patch;
}

}  // namespace

std::vector<validation::AuditEntrySpec> surfaces_audit_entries() {
  std::vector<validation::AuditEntrySpec> entries;
  const auto loop_entry = [&](std::string name, std::string summary, std::uint64_t seed, su::LoopPatchKind kind,
                              double min_digits = 13) {
    const int face = face_of_kind(kind);
    entries.push_back(jet_entry(
        std::move(name), std::move(summary), seed,
        [face](const auto& u, const auto& v) {
          using T = std::decay_t<decltype(u)>;
          return audit_mesh<T>().patch(face).evaluate(u, v).d;
        },
        min_digits));
  };
  loop_entry("surfaces.loop_regular", "regular Loop patch (quartic box spline), ten sets", 201, su::LoopPatchKind::kRegular);
  loop_entry("surfaces.loop_extraordinary", "Loop patch with one extraordinary vertex (Stam), ten sets", 202,
             su::LoopPatchKind::kExtraordinary);
  // 12 digits: the local subdivision rounds the children's control points, and
  // each split level multiplies order-p derivatives by 2^p (third: 8x) and
  // their round-off with them, one digit more than an unsplit patch.
  loop_entry("surfaces.loop_split",
             "Loop patch with several extraordinary vertices (four sub-patches), ten sets; needs 12 digits", 203,
             su::LoopPatchKind::kSplit, 12);
  entries.push_back(jet_entry("surfaces.bezier", "bicubic Bezier patch (Kry's rattleback net), ten sets", 204,
                              [](const auto& u, const auto& v) {
                                using T = std::decay_t<decltype(u)>;
                                return audit_bezier<T>().evaluate(u, v).d;
                              }));
  entries.push_back(jet_entry("surfaces.s_patch", "5-sided S-patch at an icosphere vertex, ten sets", 205,
                              [](const auto& u, const auto& v) {
                                using T = std::decay_t<decltype(u)>;
                                // (u, v) in the unit triangle, shrunk into the pentagon (inradius ~0.5).
                                return audit_s_patch<T>().evaluate(T(u - 0.3) * T(0.8), T(v - 0.3) * T(0.8)).d;
                              }));
  return entries;
}

#else

std::vector<validation::AuditEntrySpec> surfaces_audit_entries() { return {}; }

#endif  // CONTACTREF_HAS_REAL50

}  // namespace contactref::audit
