#pragma once
// Suite `six-d-departures` (issue 29, items 13 and 14): Bouchard et al.'s 6D
// model where the project departs from the paper, run both ways against
// closed forms derived here (reference/volume_contact/volume_world.hpp).
//
// The patch (item 13). Appendix A's equivalent ellipsoid has semi-axes
// k L (k = sqrt(5/12) = 0.645) over a flat region of width L, so the
// ellipse reaches (k - 1/2) L past the region, and Eqs. 11-13 at the centre
// give a spin torque mu f_n sqrt(a^2 + b^2). The paper's patch is the
// reference behaviour; the support patch (support_region.hpp) keeps the
// centre of pressure and the spin bound in the contact region.
//  - Tipping: a 0.1 m cube (1 kg) on a fixed table with its centre of mass
//    o past the table's edge. A rigid cube tips iff o > 0. The ellipse holds
//    it while its reach past the support's edge, (w/2 - o)(k - 1/2), covers
//    the overhang o: up to o* = (w/2)(k - 1/2)/(k + 1/2) = 6.35 mm. Checks:
//    the support patch tips at every o > 0 run and stands at o < 0; the
//    ellipse stands below o* and tips above it, and reaches the derived
//    distance past the edge; the support patch's first step turns the cube
//    about the edge as a rigid pivot: omega = h m g o / I_edge, I_edge =
//    m (w^2/6 + o^2 + w^2/4).
//  - Spin braking: the cube, and the paper's octagonal prism (circumradius
//    0.1 m), spinning at 20 rad/s on a plane (mu 0.3, h = 1 ms). A uniform
//    pressure brakes at alpha = mu m g m_R / I_zz with m_R the region's mean
//    distance from its centre: for a regular n-gon of apothem r,
//    m_R = (2 r / 3) F(t) / t, t = tan(pi/n), F(s) = (s sqrt(1 + s^2) +
//    asinh s) / 2 (the polar integral over its 2n right triangles; the
//    square: (s/6)(sqrt 2 + ln(1 + sqrt 2)), 67.56 rad/s^2 for the cube).
//    Eq. 13 at the centre brakes at mu m g sqrt(2) a / I_zz with Appendix
//    A's a (161.2 rad/s^2 for the cube). Checks: each patch brakes at its own
//    closed form; information: the paper's over the uniform pressure's, and
//    the point model (the four corners: mu m g (w / sqrt 2) / I_zz).
//
// The solver and the joint (item 14), each departure on and off:
//  - joint elimination against the paper's plain block Gauss-Seidel on
//    issue 29's hinged-finger problem (validation/fixtures/
//    volume_contact_scenes.hpp; 20 seeded states, sliding at mu 0.5): both
//    end where each joint's impulse is its own projection (block_pgs.hpp's
//    projection_residual, below the tolerance), a plain sweep from the
//    eliminated answer moves nothing, and elimination takes fewer sweeps;
//    information: the sweeps, and the states where the two answers differ
//    (the paper's fixed point is not unique);
//  - the spin re-solve against Algorithm 1's clamp alone
//    (wrench_projection.hpp): a bar on a small pad 3.5 cm from its centre of
//    mass, stuck, whose spin needs twice the bound: with the re-solve the
//    five other velocity rows stay zero (round-off); with the clamp alone the
//    pad slides (information: how fast);
//  - normals by differences against the exact gradient's
//    (contact_detection.hpp): two 0.1 m cubes stacked with a 3 mm overlap,
//    the upper turned by 1e-13 rad: the smoothed normal stays vertical
//    (< 1e-8 rad), the exact gradient's tilts by the strip's area over the
//    face's, 0.03 rad (information, against that estimate).
// The quick variant runs fewer overhangs, 0.6 s each, and one patch size of
// the hinged finger; the full one adds overhangs (0.25 mm past the edge, and
// 6 and 7 mm about o*), 1.2 s each, the small patch, and mu = 100
// (information: how often each solver converges).
#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult six_d_departures_suite(const SuiteOptions& options);

}  // namespace contactref::validation
