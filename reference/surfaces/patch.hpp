#pragma once
// A parametric surface patch: evaluation to third order (PatchJet), its
// parameter domain, and a regularity check. Every surface type implements it.
#include <sstream>
#include <string>

#include "reference/spatial/errors.hpp"
#include "reference/surfaces/domain.hpp"

namespace contactref::surfaces {

template <class T>
class Patch {
 public:
  virtual ~Patch() = default;
  // The point and its nine partial derivatives at (s, t), in the coordinates
  // of the body that owns the patch.
  virtual PatchJet<T> evaluate(const T& s, const T& t) const = 0;
  virtual const Domain<T>& domain() const = 0;
  // A short human-readable name ("ellipsoid", "loop face 12", ...).
  virtual std::string describe() const = 0;
};

// Throws ComputationError unless c_s x c_t != 0 at the jet, i.e. unless
// |c_s x c_t| > 64 eps |c_s| |c_t| (the round-off of the cross product).
// Kry & Pai's contact frame (Eq. 5) needs a regular surface.
template <class T>
void check_regular(const PatchJet<T>& jet, const Patch<T>& patch, const T& s, const T& t) {
  const T normal = jet.c_s().cross(jet.c_t()).norm();
  const T scale = jet.c_s().norm() * jet.c_t().norm();
  if (!(normal > T(64) * epsilon<T>() * scale) || !(scale > T(0))) {
    std::ostringstream os;
    os << patch.describe() << " is not regular at (s, t) = (" << s << ", " << t << "): |c_s x c_t| = " << normal
       << " (|c_s| |c_t| = " << scale << ")";
    throw ComputationError(os.str());
  }
}

}  // namespace contactref::surfaces
