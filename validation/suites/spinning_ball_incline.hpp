#pragma once
// Suite `spinning-ball-incline` (Pauly et al. Section 5.1, Fig. 8): a
// spinning quasi-rigid ball dropped onto a quasi-rigid incline
// (reference/quasi_rigid/quasi_rigid_dynamics.hpp), where friction turns the
// spin into motion down the slope. The paper shows the trajectory and gives
// no number; the checks are the laws the motion must obey:
//  - in flight, p(t) = p0 + m g t (to round-off);
//  - friction's work is <= 0 in every step (Section 5.1's Coulomb friction
//    opposes the slip and never reverses it);
//  - in contact, the angular momentum about the contact line,
//    L_P = I omega + m h v (h the centre's height over the incline, v its
//    speed along the slope), changes only by gravity's moment m g h sin(theta)
//    (friction and the normal tractions act at the contact line), to within
//    the changes measured from the run (the normal impulses along the slope,
//    the centre's vertical motion);
//  - once rolling, the ball accelerates at a = 5/7 g sin(theta) (classical),
//    with the same budget over the rolling window.
// The paper's model has no dissipation: undamped, the ball bounces and never
// rolls steadily. The quick variant runs it with a small Hunt-Crossley
// damping (rows "damped.", samples 8 mm apart, 0.2 s); the full one, with
// samples 5 mm apart over 0.4 s,
// adds the undamped run (rows "undamped.", its rolling rows information).
// Information: contact steps, flight steps, retractions, active samples,
// the steps where friction was capped, the start of rolling, wall time.
// Figure `spinning-ball-incline`: the side view of the trajectory and the
// angular velocity against time.
#include <filesystem>

#include "validation/registry.hpp"

namespace contactref::validation {

SuiteResult spinning_ball_incline_suite(const SuiteOptions& options);

// Runs the full variant and writes trajectory.csv (time, the centre in the
// world (x, z), the distance along the slope and the height over the
// incline, the speed along the slope, omega_y, the load) and incline.csv (its
// angle, the ball's radius).
void write_spinning_ball_incline_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
