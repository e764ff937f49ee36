#pragma once
// Suite `octagon-convergence` (Bouchard et al. Section 6.1.8, Figs. 15-17,
// Tables 1-2): how fast projected block Gauss-Seidel converges with one 6D
// contact per pair of bodies against the point-contact baseline, on the
// scenes of validation/fixtures/volume_contact_scenes.hpp, both models in
// reference/volume_contact/volume_world.hpp with the paper's stopping rule
// (the 2-norm of one sweep's update vector below 1e-15).
//
// Checks:
//  - Fig. 16: one step of the sliding octagon, solved from zero impulses (no
//    warm start, "at a time step where the geometries are in resting
//    contact"): the 6D model needs at most 3 sweeps (the paper's count, the
//    issue's target); both converge; the 6D model needs fewer sweeps than the
//    point contacts (the paper's claim); both give the octagon the same
//    linear impulse (one Coulomb solution: the normal impulse stops the
//    approach, friction is mu of it against the slip), to the solver's
//    tolerance.
//  - Figs. 16-17's slide to rest (h = 1 ms): both models stop after the
//    Coulomb distance v0^2/(2 mu g) within v0 h (semi-implicit Euler travels
//    v0 h/2 less, to O(h^2)) and at v0/(mu g) within 2 h.
//  - Table 2's scenes stay up: after 100 steps of 10 ms the stack and the
//    brick pyramid have turned by less than 1e-3 rad (a toppling stack has
//    turned by 1e-2 within the second; the 6D normal where a brick's end
//    overlaps the brick below leans by the target depth over the patch's
//    width, 1e-4 rad: the intersection's end strip) and sunk by at most the
//    depth the target volume allows at each interface below a body.
// Information, beside the paper's numbers where it gives them (quoted as
// such): the contacts and scalar constraints (Fig. 16: 21 points, 63
// constraints, against 6); the sweeps of each model; Table 2's mean and
// standard deviation of sweeps and final residuals over 100 steps (the stack;
// the pyramid stands in for the paper's "armadillo salad", scanned meshes we
// do not have); Table 1's milliseconds per step in detection, stabilisation,
// assembly and solve (the 6D joints' factorisations are part of the solve)
// for the bumpy cube, the sphere and the stack (full variant); and MuJoCo
// (condim 6, Euler at 1 ms) on the octagon and the stack: contacts and
// microseconds per step.
// The quick variant runs Fig. 16, the slide, 20 steps of Table 2's scenes
// and MuJoCo's octagon; the full one adds 100 steps, Table 1 and MuJoCo's
// stack.
// Figure `octagon-convergence`: Fig. 16 redrawn (the update norm against the
// sweep for both models) beside the stack's residual curves (Fig. 15).
#include <filesystem>

#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult octagon_convergence_suite(const SuiteOptions& options);

// Writes residuals.csv: scene, model, sweep, update norm: the octagon's cold
// solve and the stack's first solve in resting contact without warm start.
void write_octagon_convergence_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
