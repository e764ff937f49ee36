#include "reference/dynamics/contact_entry.hpp"

#include <Eigen/LU>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/spatial/adjoint.hpp"
#include "reference/spatial/pose.hpp"

namespace contactref::dynamics {

template <class T>
ContactEntry<T> contact_entry(const ContactSystem<T>& system, const spatial::RigidBodyState<T>& body, const T& time,
                              int patch1, const surfaces::Vec2<T>& st, int patch2, const surfaces::Vec2<T>& uv) {
  using std::atan2;
  const surfaces::Patch<T>& p1 = *system.surface1->patches.at(std::size_t(patch1));
  const surfaces::Patch<T>& p2 = *system.surface2->patches.at(std::size_t(patch2));
  const Mat3<T> R_w_1 = body.R_w_b();
  const Mat3<T> R_w_2 = spatial::rotation_of<T>(system.E_w_2);
  // psi from the tangent frames at the body's own orientation (psi = 0 only
  // fixes the frames: Eq. 6 does not depend on psi).
  Vec5<T> q;
  q << st, uv, T(0);
  const kinematics::ContactConfiguration<T> frames = kinematics::contact_configuration<T>(p1, p2, q);
  const Vec3<T> x_1c_w = R_w_1 * frames.E_1_1c.template block<3, 1>(0, 0);
  const Vec3<T> y_1c_w = R_w_1 * frames.E_1_1c.template block<3, 1>(0, 1);
  const Vec3<T> x_2c_w = R_w_2 * frames.E_2_2c.template block<3, 1>(0, 0);
  q(4) = atan2(T(-x_2c_w.dot(y_1c_w)), T(x_2c_w.dot(x_1c_w)));
  const kinematics::ContactConfiguration<T> c = kinematics::contact_configuration<T>(p1, p2, q);

  ContactEntry<T> entry;
  entry.state.time = time;
  entry.state.patch1 = patch1;
  entry.state.patch2 = patch2;
  entry.state.q = q;
  const Mat4<T> E_w_1 = system.E_w_2 * c.E_2_1;  // Eq. 9: the snapped pose
  const Mat3<T> R_snapped = spatial::rotation_of<T>(E_w_1);
  entry.snap_distance = (spatial::translation_of<T>(E_w_1) - body.x_w).norm();
  entry.snap_rotation = Eigen::AngleAxis<T>(Mat3<T>(R_snapped * R_w_1.transpose())).angle();
  // The twist relative to the fixed body 2 in body-1 coordinates (Eq. 10),
  // at the snapped orientation, then in frame 1c.
  Vec6<T> phi;
  phi << R_snapped.transpose() * body.omega_w, R_snapped.transpose() * body.v_w;
  const Vec6<T> phi_1c = spatial::transform_twist<T>(spatial::pose_inverse<T>(c.E_1_1c), phi);
  const Eigen::Matrix<T, 5, 5> H5 = c.H_1c.template topRows<5>();
  const Eigen::FullPivLU<Eigen::Matrix<T, 5, 5>> lu(H5);
  if (!lu.isInvertible()) {
    std::ostringstream os;
    os << "contact entry on " << p1.describe() << " (" << st.transpose() << ") and " << p2.describe() << " ("
       << uv.transpose() << "): the contact is conforming (H_1c's tangential rows are singular)";
    throw ComputationError(os.str());
  }
  entry.state.qdot = lu.solve(Vec5<T>(phi_1c.template head<5>()));
  // Frame 1c's z is body 1's outward normal, against body 2's (Eq. 7).
  entry.normal_velocity = -phi_1c(5);
  return entry;
}

template <class T>
spatial::RigidBodyState<T> free_state(const ContactDynamicsState<T>& at) {
  const Mat3<T> R_w_1 = spatial::rotation_of<T>(at.E_w_1);
  spatial::RigidBodyState<T> body;
  body.x_w = spatial::translation_of<T>(at.E_w_1);
  body.q_w_b = Eigen::Quaternion<T>(R_w_1).normalized();
  body.omega_w = R_w_1 * at.phi.template head<3>();
  body.v_w = R_w_1 * at.phi.template tail<3>();
  return body;
}

#define CONTACTREF_INSTANTIATE(T)                                                                                    \
  template ContactEntry<T> contact_entry(const ContactSystem<T>&, const spatial::RigidBodyState<T>&, const T&, int,  \
                                         const surfaces::Vec2<T>&, int, const surfaces::Vec2<T>&);                   \
  template spatial::RigidBodyState<T> free_state(const ContactDynamicsState<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
