#pragma once
// Suite `loop-evaluation`: the exact Loop evaluation (reference/surfaces) on a
// fixed set of control meshes (Kry's App. B.2 bowl, an icosahedron, a mesh with
// valences 3 to 10): 50-digit finite-difference error per derivative order,
// continuity across every shared edge, and agreement with OpenSubdiv's Bfr
// (exact on regular faces; limit point and tangent plane at extraordinary
// corners; the interior difference near extraordinary vertices is reported).
#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult loop_evaluation_suite(const SuiteOptions& options);

// Figure `loop-bowl`: the App. B.2 bowl's limit surface sampled per face
// (surface.csv), its patch boundaries (boundaries.csv) and its extraordinary
// vertices (vertices.csv).
void write_loop_bowl_figure_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
