#pragma once
// A parametric surface patch: evaluation to third order (PatchJet), its
// parameter domain, and a regularity check. Every surface type implements it.
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
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
  // The polygon (counter-clockwise, in this patch's parameters) of the
  // polynomial piece that the point (s, t) + delta direction lies in for
  // small delta > 0. Loop patches are piecewise polynomial (split faces, the
  // dyadic rings about an extraordinary vertex) and their third derivatives
  // jump between pieces, so an integrator must not step across a piece
  // boundary blindly. Default: the whole domain polygon (one piece; empty for
  // a chart, which has no polygon).
  virtual std::vector<Vec2<T>> smooth_piece(const T& s, const T& t, const Vec2<T>& direction) const {
    (void)s, (void)t, (void)direction;
    return domain().polygon;
  }
  // The polynomial of the piece that contains `inside`, evaluated at (s, t),
  // which may lie outside that piece (its polynomial extension). An
  // integrator pins its stages to one piece with this, so that a stage
  // that pokes across a piece boundary does not see the next piece's third
  // derivatives. Default: evaluate(s, t) (one piece).
  virtual PatchJet<T> evaluate_piece(const T& s, const T& t, const Vec2<T>& inside) const {
    (void)inside;
    return evaluate(s, t);
  }
  // The corners of the domain polygon where the parameterisation is singular:
  // a Loop patch's extraordinary vertices (Stam's derivatives are not
  // defined there and degenerate about them). Default: none.
  struct SingularCorner {
    int corner;          // index into domain().polygon
    std::string vertex;  // names the vertex: "vertex 7 (valence 4)"
  };
  virtual std::vector<SingularCorner> singular_corners() const { return {}; }
  // The inverse of a chart: the parameters of a point on the surface (body
  // coordinates), for the charts of an atlas (patch_complex.hpp), which
  // switch a contact between them. Default: none (no inverse known).
  virtual std::optional<Vec2<T>> parameters_of(const Vec3<T>& point) const {
    (void)point;
    return std::nullopt;
  }
};

// Throws ComputationError unless c_s x c_t != 0 at the jet, i.e. unless
// |c_s x c_t| > 64 eps |c_s| |c_t| (the round-off of the cross product), and
// where |c_s x c_t| or |c_s| |c_t| overflows (a patch so large that its
// normal's norm is infinite: Eq. 5's z would be 0); one so small that the
// norm underflows to 0 fails the first test.
// Kry & Pai's contact frame (Eq. 5) needs a regular surface.
template <class T>
void check_regular(const PatchJet<T>& jet, const Patch<T>& patch, const T& s, const T& t) {
  using std::isfinite;
  const T normal = jet.c_s().cross(jet.c_t()).norm();
  const T scale = jet.c_s().norm() * jet.c_t().norm();
  const bool representable = isfinite(normal) && isfinite(scale);
  if (!representable || !(normal > T(64) * epsilon<T>() * scale) || !(scale > T(0))) {
    std::ostringstream os;
    os << patch.describe() << " is not regular at (s, t) = (" << s << ", " << t << "): |c_s x c_t| = " << normal
       << " (|c_s| |c_t| = " << scale << ")";
    if (!representable) os << ", not representable at this patch's scale";
    throw ComputationError(os.str());
  }
}

}  // namespace contactref::surfaces
