#pragma once
// The friction modes of a single contact (Kry & Pai Section 3.4, Kry's thesis
// Section 4.4) and their reduced velocities.
//
// Friction acts on three groups of rows of the relative twist in frame 1c,
// phi_1c = (omega_x, omega_y, omega_z, v_x, v_y, 0): the rolling (rows 0-1),
// the spin (row 2) and the slip (rows 3-4). A friction mode holds some groups
// at zero and leaves the rest free (free_rows); its state is (q, r') with r'
// the n reduced velocities, and q' = P(q) r':
//   frictionless, sliding   nothing held, n = 5: r' = q', P = I
//   no-slip (Eqs. 29-34)    slip held, n = 3: r' = (u', v', psi'),
//                                  (s', t') = D (u', v'),
//                                  D = -A^-1 B,  A = H_1c[3..4, 0..1],
//                                  B = H_1c[3..4, 2..3]                  (Eq. 31)
//   no-spin (Eqs. 36-39)    slip and spin held, n = 2: r' = (u', v'),
//                                  psi' = G (u', v'),
//                                  G = -(H_1c[2, 0..1] D + H_1c[2, 2..3]) / H_1c[2, 4]
//                                                                        (Eq. 37)
//   no-roll                 slip and rolling held, n = 1: r' = psi', free
//                                  row 2 (the spin): with neither slip nor
//                                  rolling both contact points stay on their
//                                  material points (the two curvatures' sum
//                                  is regular), so P = e_5, constant (Pdot = 0)
//   rest                    all held, n = 0: P empty: the bodies stick
//   sliding-no-spin,        the slip free with the spin, the rolling or both
//   sliding-no-roll,        held (not in the papers: where a resistance
//   sliding-no-roll-no-spin stops the spin or the rolling while the contact
//                           slides): r' = the free rows of phi_1c
//                           themselves, q' = H5^-1 E r', with H5 = rows 0..4
//                           of H_1c (regular wherever the contact is not
//                           conforming: Montana's equations solve it) and E
//                           the free columns of I_5; Pdot = -H5^-1 Hdot5 P
//                           (from H5 P = E), n = 4, 3, 2.
// No-roll, rest and the sliding modes that hold a group are the rest states
// of the resistances (thesis Eqs. 4.27-4.29): without them a velocity that
// its resistance stops would reverse at every step.
// (0-based rows and columns of this code's H_1c, whose spin entry H_1c[2, 4]
// is +1, contact_kinematics.hpp; Eq. 37 assumes the same sign.)
// A = -(x.c_s, x.c_t; 0, y.c_t) of body 1's frame is triangular with the
// diagonal (-|c_s|, -|c_s x c_t| / |c_s|), so it is invertible at every
// regular point.
//
// The reduced Jacobian is H_r = H_1 P (Eq. 34's H', Eq. 39's H''), and
// phi = H_r r'. Its time derivative, which the papers do not give (derived
// here, checked by 50-digit differences in the tests):
//   Hdot_r = Hdot_1 P + H_1 Pdot,
//   Ddot = -A^-1 (Adot D + Bdot)   (from A D + B = 0),
//   Gdot = -(Hdot_1c[2, 0..1] D + H_1c[2, 0..1] Ddot + Hdot_1c[2, 2..3]) / H_1c[2, 4]
// (H_1c[2, 4] is constant), with Adot, Bdot the blocks of Hdot_1c along
// q' = P r'. The dynamics need them times r' alone (Eq. 19's dphi =
// Hdot_r r' + H_r r''), and with (s', t') = D (u', v') and Hdot_1c's zero
// psi column these contract to rows of Hdot_1c q':
//   Hdot_r r' = Hdot_1 q' + H_1 Pdot r',
//   Ddot (u', v') = -A^-1 (Hdot_1c q')[3..4],
//   Gdot (u', v') = -((Hdot_1c q')[2] + H_1c[2, 0..1] Ddot (u', v')) / H_1c[2, 4],
//   Pdot r' = -H5^-1 (Hdot_1c q')[0..4] for the sliding modes that hold a group.
#include <Eigen/Core>
#include <array>

#include "reference/kinematics/contact_kinematics.hpp"

namespace contactref::dynamics {

enum class ContactMode {
  kFrictionless, kSliding, kNoSlip, kNoSpin, kNoRoll, kRest, kSlidingNoSpin, kSlidingNoRoll, kSlidingNoRollNoSpin
};
const char* to_string(ContactMode mode);

// The groups of rows of phi_1c that friction may hold (header), as bits.
enum VelocityGroup : unsigned { kRollingGroup = 1, kSpinGroup = 2, kSlipGroup = 4 };
// The groups a friction mode holds (0 for frictionless and sliding).
unsigned held_groups(ContactMode mode);
// The friction mode that holds exactly `groups` (sliding for none).
ContactMode friction_mode_holding(unsigned groups);
const char* to_string(VelocityGroup group);

// n: the number of reduced velocities, which are also the free rows of phi_1c.
int velocity_dimension(ContactMode mode);
// The free rows of phi_1c, in increasing order (the first velocity_dimension
// entries): 0..4 frictionless and sliding, 0..2 no-slip, 0..1 no-spin, 2 no-roll,
// 0, 1, 3, 4 sliding-no-spin, 2..4 sliding-no-roll, 3..4 sliding-no-roll-no-spin.
const std::array<int, 5>& free_rows(ContactMode mode);
// Whether the mode holds the rolling (rows 0-1), the spin (row 2), the slip (rows 3-4) at zero.
inline bool holds_rolling(ContactMode mode) { return (held_groups(mode) & kRollingGroup) != 0; }
inline bool holds_spin(ContactMode mode) { return (held_groups(mode) & kSpinGroup) != 0; }
inline bool holds_slip(ContactMode mode) { return (held_groups(mode) & kSlipGroup) != 0; }
// The modes whose r' are rows of phi_1c (the sliding modes that hold a group).
inline bool twist_coordinates(ContactMode mode) {
  return mode == ContactMode::kSlidingNoSpin || mode == ContactMode::kSlidingNoRoll ||
         mode == ContactMode::kSlidingNoRollNoSpin;
}

template <class T> using Vec5 = kinematics::Vec5<T>;
// A mode's reduced velocities r' (n <= 5) and its state (q, r') (5 + n <= 10).
template <class T> using ReducedVector = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, 5, 1>;
template <class T> using StateVector = Eigen::Matrix<T, Eigen::Dynamic, 1, 0, 10, 1>;
template <class T> using Mat5 = Eigen::Matrix<T, 5, 5>;
template <class T> using Mat5R = Eigen::Matrix<T, 5, Eigen::Dynamic, 0, 5, 5>;
template <class T> using Mat6R = Eigen::Matrix<T, 6, Eigen::Dynamic, 0, 6, 5>;

template <class T>
struct ModeKinematics {
  ContactMode mode;
  Mat5R<T> P;        // q' = P r'
  Vec5<T> qdot;      // P r'
  Mat6R<T> H_r;      // phi = H_r r' in frame 1
  Vec5<T> Pdot_rdot;    // (dP/dt) r'
  Vec6<T> Hdot_r_rdot;  // (dH_r/dt) r'
};

// The map q' = P r' at the configuration (P depends on q alone).
template <class T>
Mat5R<T> reduced_velocity_map(ContactMode mode, const kinematics::Mat65<T>& H_1c);

// Everything above at r' and the configuration that `kinematics` holds, whose
// Hdot q' along q' = P r' is set (kinematics::set_hdot_qdot). InputError when r'
// has the wrong size for the mode or is not finite.
template <class T>
ModeKinematics<T> mode_kinematics(ContactMode mode, kinematics::ContactRates<T>& kinematics,
                                  const ReducedVector<T>& rdot);

// The reduced velocities of a mode taken from q' (the entries of q' that the
// mode keeps: (u', v', psi') for no-slip, (u', v') for no-spin, psi' for
// no-roll, none at rest; the free rows of H_1c q' for the sliding modes that
// hold a group). This keeps the contact's motion on body 2 (or the free
// rows of the twist) and is no projection: see ContactDynamics::project for
// the impulsive change of mode.
template <class T>
ReducedVector<T> reduced_velocities(ContactMode mode, const kinematics::Mat65<T>& H_1c, const Vec5<T>& qdot);

}  // namespace contactref::dynamics
