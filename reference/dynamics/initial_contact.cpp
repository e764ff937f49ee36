#include "reference/dynamics/initial_contact.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "reference/kinematics/contact_kinematics.hpp"
#include "reference/surfaces/analytic_patches.hpp"

namespace contactref::dynamics {

namespace {

template <class T> using Mat2 = Eigen::Matrix<T, 2, 2>;
using surfaces::Vec2;

template <class T>
std::string where(const ContactState<T>& state) {
  std::ostringstream os;
  os << "the initial contact (patches " << state.patch1 << " and " << state.patch2 << ", q = (" << state.q.transpose()
     << "))";
  return os.str();
}

// The smallest eigenvalue of a symmetric 2 x 2 matrix.
template <class T>
T smallest_eigenvalue(const Mat2<T>& K) {
  using std::sqrt;
  const T mean = (K(0, 0) + K(1, 1)) / 2, half_gap = (K(0, 0) - K(1, 1)) / 2;
  return mean - sqrt(half_gap * half_gap + K(0, 1) * K(0, 1));
}

template <class T>
void check_curvature(const kinematics::ContactConfiguration<T>& c, const ContactState<T>& state) {
  const Mat2<T> K1 = kinematics::curvature(c.frame1), K2 = kinematics::curvature(c.frame2);
  const Mat2<T> R = c.E_1c_2c.template topLeftCorner<2, 2>();
  const Mat2<T> K = K1 + R * K2 * R.transpose();
  const T lowest = smallest_eigenvalue<T>(Mat2<T>((K + K.transpose()) / 2));
  if (!(lowest < -T(64) * epsilon<T>() * (K1.norm() + K2.norm()))) return;
  std::ostringstream os;
  os << "simulation: " << where(state) << " interpenetrates: the relative curvature of the two surfaces there has the "
     << "eigenvalue " << lowest << " 1/m (body 1's principal curvatures about its outward normal "
     << smallest_eigenvalue<T>(Mat2<T>((K1 + K1.transpose()) / 2)) << " and up, body 2's "
     << smallest_eigenvalue<T>(Mat2<T>((K2 + K2.transpose()) / 2))
     << " and up): the surfaces cross next to the contact point, so the bodies overlap";
  throw InputError(os.str());
}

template <class T>
void check_above_plane(const ContactSystem<T>& system, const kinematics::ContactConfiguration<T>& c,
                       const ContactState<T>& state) {
  using std::abs;
  using std::isfinite;
  const Mat3<T> R_2_1 = c.E_2_1.template topLeftCorner<3, 3>();
  const Vec3<T> p_2_1 = c.E_2_1.template topRightCorner<3, 1>();
  T size = T(0), lowest = T(0);
  Vec2<T> lowest_at = Vec2<T>::Zero();
  int lowest_patch = -1;
  for (std::size_t index = 0; index < system.surface1->patches.size(); ++index) {
    const surfaces::Patch<T>& patch = *system.surface1->patches[index];
    const surfaces::Domain<T>& domain = patch.domain();
    Vec2<T> lo, hi;
    if (domain.is_polygon()) {
      lo = hi = domain.polygon.front();
      for (const Vec2<T>& x : domain.polygon) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
    } else {
      lo << domain.s.lo, domain.t.lo;
      hi << domain.s.hi, domain.t.hi;
    }
    if (!lo.allFinite() || !hi.allFinite()) continue;  // an unbounded chart: no grid
    const int n = domain.is_polygon() ? 6 : 24;
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; j <= n; ++j) {
        const Vec2<T> x(lo.x() + (hi.x() - lo.x()) * T(i) / T(n), lo.y() + (hi.y() - lo.y()) * T(j) / T(n));
        if (!domain.contains(x.x(), x.y())) continue;
        const Vec3<T> point_1 = patch.evaluate(x.x(), x.y()).c();
        size = std::max(size, T(point_1.norm()));
        const T height = (R_2_1 * point_1 + p_2_1).z();  // the plane is z = 0 of body 2, its outward normal +z
        if (isfinite(height) && height < lowest) lowest = height, lowest_at = x, lowest_patch = int(index);
      }
    }
  }
  if (!(lowest < -T(1e-9) * size)) return;
  std::ostringstream os;
  os << "simulation: " << where(state) << " puts body 1 " << -lowest << " m below body 2's plane at (" << lowest_at.x()
     << ", " << lowest_at.y() << ") of its patch " << lowest_patch << " ("
     << system.surface1->patches[std::size_t(lowest_patch)]->describe() << "): the bodies overlap";
  throw InputError(os.str());
}

}  // namespace

template <class T>
void check_initial_contact(const ContactSystem<T>& system, const ContactState<T>& state) {
  const surfaces::Patch<T>& patch2 = *system.surface2->patches[std::size_t(state.patch2)];
  const kinematics::ContactConfiguration<T> c = kinematics::contact_configuration<T>(
      *system.surface1->patches[std::size_t(state.patch1)], patch2, state.q);
  check_curvature(c, state);
  if (dynamic_cast<const surfaces::PlanePatch<T>*>(&patch2)) check_above_plane(system, c, state);
}

#define CONTACTREF_INSTANTIATE(T) \
  template void check_initial_contact<T>(const ContactSystem<T>&, const ContactState<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::dynamics
