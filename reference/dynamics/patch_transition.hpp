#pragma once
// Patch-boundary traversal (Kry & Pai Section 3.5, Eqs. 41-43, Figs. 4-5;
// thesis 4.5, Eqs. 4.52-4.54; shared/notes/smooth-contact.md Section 4).
//
// When the contact point of body b reaches edge e of its current patch A, the
// contact moves to the neighbouring patch B across that edge
// (surfaces::PatchComplex::links), and the contact coordinates change so
// that nothing physical does:
//  - Eq. 41: the point at fraction alpha along edge e of A (from domain vertex
//    e to e + 1) is the point at fraction g(alpha) = 1 - alpha along the
//    neighbour's edge (PatchComplex::neighbour_fraction);
//  - Eq. 42: psi changes by the angle from x^A to x^B (the contact-frame x
//    axes of the two patches at the point) about that body's normal,
//    psi^B = psi^A + atan2((x^A x x^B) . z, x^A . x^B)
//    (the thesis's sgn() acos() form, well conditioned everywhere), with the
//    same sign for a transition on body 2, using body 2's axes and z_2c
//    (derived in the .cpp from R_psi = diag(1, -1, -1) Rz(psi)). psi is not
//    wrapped: where x^B = -x^A the branch (+-pi) follows the round-off;
//  - Eq. 43: the new q' solves Hhat^B q'^B = Hhat^A q'^A, with Hhat the 5 x 5
//    rows of H expressed in the contact frame of the other body (2c for a
//    transition on body 1, 1c for one on body 2: the frame the transition
//    leaves in place), without its normal row (the linear-z row, zero in
//    both contact frames), solved by a column-pivoted QR.
// The relative pose E_2_1 and the relative twist H_1 q' are therefore the
// same before and after (tested, also at the edge's corners alpha = 0, 1).
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/surfaces/patch_complex.hpp"

namespace contactref::dynamics {

template <class T> using Vec5 = kinematics::Vec5<T>;

template <class T>
struct PatchTransition {
  int to_patch = -1;
  int to_edge = -1;
  Vec5<T> q;     // the contact coordinates on the new patch
  Vec5<T> qdot;
};

// The transition of body `body` (1 or 2) from patch `from_patch` of its
// complex across edge `edge`, at the point at fraction `alpha` in [0, 1] along
// that edge (the caller has located the crossing; q's entries for that body
// are replaced by the exact edge point). `other_patch` is the other body's
// current patch. Returns the neighbour patch and its edge (crossing back over
// to_edge at 1 - alpha undoes the transition) with the new q and q'. Throws
// InputError for a body other than 1 or 2, a patch or edge out of range, a
// chart (no edges), alpha outside [0, 1] or a link to a missing patch or edge;
// ComputationError when the edge has no neighbour (the contact has left an
// open surface), the point is not regular on either patch (e.g. a Loop corner
// at an extraordinary vertex) or Eq. 43 is singular (conforming contact).
// Messages name the body, the edge and the patch.
template <class T>
PatchTransition<T> transit_edge(const surfaces::PatchComplex<T>& complex, int body, int from_patch, int edge,
                                const T& alpha, const surfaces::Patch<T>& other_patch, const Vec5<T>& q,
                                const Vec5<T>& qdot);

// A chart switch in an atlas (surfaces::PatchComplex::is_atlas, e.g.
// surfaces::ellipsoid_atlas): body `body`'s point on chart `from_patch` is
// located on the other chart that holds it deepest inside its band
// (Patch::parameters_of), and q, q' are re-expressed there by Eqs. 42-43 as
// at an edge (E_2_1 and H_1 q' unchanged). Returns the chart (to_edge -1).
// InputError for a body other than 1 or 2, a complex that is no atlas or a
// chart out of range; ComputationError when no other chart holds the point
// or the point is not regular there, or Eq. 43 is singular.
template <class T>
PatchTransition<T> switch_chart(const surfaces::PatchComplex<T>& complex, int body, int from_patch,
                                const surfaces::Patch<T>& other_patch, const Vec5<T>& q, const Vec5<T>& qdot);

}  // namespace contactref::dynamics
