#include "reference/volume_contact/centre_of_pressure.hpp"

#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::volume_contact {

Eigen::Vector2d centre_of_pressure(double f_n, const Eigen::Vector2d& tau_t) {
  if (!(std::isfinite(f_n) && f_n > 0) || !tau_t.allFinite()) {
    std::ostringstream os;
    os << "centre of pressure: need a finite normal force > 0 and a finite torque, got f_n = " << f_n
       << " N, tau_t = (" << tau_t.x() << ", " << tau_t.y() << ") N m";
    throw InputError(os.str());
  }
  return Eigen::Vector2d(-tau_t.y(), tau_t.x()) / f_n;
}

PatchProjection project_onto_ellipse(const Eigen::Vector2d& d, const Eigen::Vector2d& semi_axes) {
  const double a = semi_axes.x(), b = semi_axes.y();
  if (!d.allFinite() || !(std::isfinite(a) && a >= b && b >= 0)) {
    std::ostringstream os;
    os << "ellipse projection: need a finite point and semi-axes a >= b >= 0, got d = (" << d.x() << ", " << d.y()
       << "), (a, b) = (" << a << ", " << b << ")";
    throw InputError(os.str());
  }
  PatchProjection out;
  // Work in the first quadrant (the ellipse is symmetric), then restore the signs.
  const double y0 = std::abs(d.x()), y1 = std::abs(d.y());
  const auto signed_point = [&](double x0, double x1) {
    return Eigen::Vector2d(std::copysign(x0, d.x()), std::copysign(x1, d.y()));
  };
  if (b == 0) {  // a segment (or a point): inside only on it
    out.inside = y1 == 0 && y0 <= a;
    out.point = out.inside ? d : signed_point(std::min(y0, a), 0);
    return out;
  }
  const double level = (y0 / a) * (y0 / a) + (y1 / b) * (y1 / b);
  if (level <= 1) {
    out.point = d;
    return out;
  }
  out.inside = false;
  if (y1 == 0) {  // outside on the major axis: its vertex
    out.point = signed_point(a, 0);
    return out;
  }
  const double a2 = a * a, b2 = b * b;
  const auto F = [&](double t) {
    const double r0 = a * y0 / (t + a2), r1 = b * y1 / (t + b2);
    return r0 * r0 + r1 * r1 - 1;
  };
  const double low = -b2 + b * y1, high = -b2 + std::sqrt(a2 * y0 * y0 + b2 * y1 * y1);
  double t = low;
  const double f_low = F(low), f_high = F(high);
  if (f_high < 0 && f_low > 0) {
    std::uintmax_t iterations = 100;
    const auto [lo, hi] = boost::math::tools::toms748_solve(
        F, low, high, f_low, f_high, boost::math::tools::eps_tolerance<double>(52), iterations);
    t = 0.5 * (lo + hi);
    out.iterations = static_cast<int>(iterations);
  } else {
    t = f_high >= 0 ? high : low;  // the root is an end of the bracket (to round-off)
  }
  out.point = signed_point(a2 * y0 / (t + a2), b2 * y1 / (t + b2));
  return out;
}

}  // namespace contactref::volume_contact
