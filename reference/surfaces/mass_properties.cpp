#include "reference/surfaces/mass_properties.hpp"

#include <boost/math/special_functions/legendre.hpp>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "reference/surfaces/loop_eigenstructure.hpp"

namespace contactref::surfaces {
namespace {

// Running sums of the surface integrals of mass_properties.hpp about an origin.
template <class T>
struct Moments {
  T volume = T(0);                   // 1/3 \oint (x.n) dA
  Vec3<T> first = Vec3<T>::Zero();   // 1/4 \oint x (x.n) dA
  Mat3<T> second = Mat3<T>::Zero();  // 1/5 \oint x x^T (x.n) dA
  T absolute = T(0);                 // 1/3 \oint |x.n| dA: the scale of the round-off
  T area = T(0);                     // \oint |n| dA
  T radius = T(0);                   // the largest |x| at a node

  void add(const Moments& other) {
    using std::max;
    volume += other.volume;
    first += other.first;
    second += other.second;
    absolute += other.absolute;
    area += other.area;
    radius = max(radius, other.radius);
  }
};

template <class T>
void add_node(Moments<T>& sums, const PatchJet<T>& jet, const Vec3<T>& origin, const T& weight) {
  using std::abs;
  using std::max;
  const Vec3<T> x = jet.c() - origin;
  const Vec3<T> n = jet.c_s().cross(jet.c_t());
  const T flux = weight * x.dot(n);
  sums.volume += flux / 3;
  sums.first += (flux / 4) * x;
  sums.second += (flux / 5) * (x * x.transpose());
  sums.absolute += abs(flux) / 3;
  sums.area += weight * n.norm();
  sums.radius = max(sums.radius, T(x.norm()));
}

// The n-point Gauss-Legendre rule on [0, 1] (exact to degree 2n - 1): nodes
// (1 -+ z) / 2 at the zeros z of P_n, weights 1 / ((1 - z^2) P_n'(z)^2).
template <class T>
std::vector<std::pair<T, T>> gauss_legendre(int n) {
  std::vector<std::pair<T, T>> rule;
  for (const T& z : boost::math::legendre_p_zeros<T>(n)) {
    const T derivative = boost::math::legendre_p_prime(n, z);
    const T weight = 1 / ((1 - z * z) * derivative * derivative);
    rule.emplace_back((1 + z) / 2, weight);
    if (z != 0) rule.emplace_back((1 - z) / 2, weight);
  }
  return rule;
}

}  // namespace

// Collapsed (Duffy) rule: with u = a, v = (1 - a) b and du dv = (1 - a) da db,
// u^i v^j becomes a^i (1 - a)^(j + 1) b^j, of degree i + j + 1 <= 19 in a and
// j <= 18 in b when i + j <= 18, both integrated exactly by 10-point
// Gauss-Legendre (exact to degree 19).
template <class T>
TriangleRule<T> triangle_rule() {
  const auto line = gauss_legendre<T>(10);
  TriangleRule<T> rule;
  for (const auto& [a, wa] : line) {
    for (const auto& [b, wb] : line) {
      rule.points.emplace_back(a, (1 - a) * b);
      rule.weights.push_back(wa * wb * (1 - a));
    }
  }
  return rule;
}

namespace {

// The exact rule on the triangle `corners` of the patch's domain (affine image
// of the unit triangle, Jacobian |det|) on which the patch is polynomial.
template <class T>
Moments<T> integrate_triangle(const Patch<T>& patch, const std::array<Vec2<T>, 3>& corners, const Vec3<T>& origin,
                              const TriangleRule<T>& rule) {
  using std::abs;
  const Vec2<T> e1 = corners[1] - corners[0], e2 = corners[2] - corners[0];
  const T jacobian = abs(e1.x() * e2.y() - e1.y() * e2.x());
  Moments<T> sums;
  for (std::size_t k = 0; k < rule.points.size(); ++k) {
    const Vec2<T> st = corners[0] + rule.points[k].x() * e1 + rule.points[k].y() * e2;
    add_node(sums, patch.evaluate(st.x(), st.y()), origin, jacobian * rule.weights[k]);
  }
  return sums;
}

// A triangle of the domain whose corners[0] is an EV, with the subdominant
// eigenvalue lambda of its subdivision matrix. In coordinates (a, b) along
// the edges from the EV, ring n (n >= 1) is 2^-n <= a + b <= 2^(1-n), made
// of three sub-triangles (children 1, 2, 3 of kLoopChildMaps at level n) on
// each of which the patch is a quartic: the exact rule sums rings 1..L.
// The neglected disc a + b < 2^-L has area A_L = sum_{n > L} a_n (a_n: the
// area of ring n). Near the EV the surface is x0 + lambda^n (characteristic
// map) + O(mu^n) (Stam 1998; mu < lambda the next eigenvalue), so
// a_{n+1} / a_n -> lambda^2: with q = max(lambda^2, a_L / a_{L-1}),
// A_L ~ a_L q / (1 - q), doubled to cover the ratios' approach to lambda^2
// (measured for valences 4 to 10: within 20% of lambda^2 at ring 2, 3% from
// ring 3 on; the tests check the bound against much deeper sums). Rings are added until that bound is at most the
// tolerance times the area integrated, or L = max_depth.
template <class T>
Moments<T> integrate_extraordinary(const Patch<T>& patch, const std::array<Vec2<T>, 3>& corners, const T& lambda,
                                   const Vec3<T>& origin, const TriangleRule<T>& rule,
                                   const MassPropertiesOptions<T>& options, T& tail_area, int& pieces) {
  using std::max;
  const Vec2<T> e1 = corners[1] - corners[0], e2 = corners[2] - corners[0];
  Moments<T> sums;
  T previous_area = T(0), h = T(1);  // h = 2^(1-n)
  for (int n = 1; n <= options.max_depth; ++n, h /= 2) {
    const auto at = [&](double a, double b) { return Vec2<T>(corners[0] + (T(a) * h) * e1 + (T(b) * h) * e2); };
    Moments<T> ring;
    ring.add(integrate_triangle(patch, {at(0.5, 0), at(1, 0), at(0.5, 0.5)}, origin, rule));
    ring.add(integrate_triangle(patch, {at(0, 0.5), at(0.5, 0.5), at(0, 1)}, origin, rule));
    ring.add(integrate_triangle(patch, {at(0.5, 0.5), at(0, 0.5), at(0.5, 0)}, origin, rule));
    sums.add(ring);
    pieces += 3;
    if (n >= 2) {
      const T q = max(T(lambda * lambda), T(ring.area / previous_area));
      tail_area = q < 1 ? T(2 * ring.area * q / (1 - q)) : std::numeric_limits<T>::infinity();
      if (tail_area <= options.tolerance * sums.area) break;
    }
    previous_area = ring.area;
  }
  return sums;
}

template <class T>
void check_input(const T& density, const MassPropertiesOptions<T>& options, const std::string& name) {
  using std::isfinite;
  if (!(isfinite(density) && density > 0)) {
    std::ostringstream os;
    os << name << ": density must be finite and positive (got " << density << ")";
    throw InputError(os.str());
  }
  if (options.max_depth < 2 || options.max_depth > kMaxRingDepth || options.max_nodes < 8) {
    throw InputError(name + ": mass-properties options need 2 <= max_depth <= " + std::to_string(kMaxRingDepth) +
                     " and max_nodes >= 8");
  }
  if (!(isfinite(options.tolerance) && options.tolerance >= 0 && options.tolerance < 1)) {
    std::ostringstream os;
    os << name << ": the mass-properties tolerance must be in [0, 1) (got " << options.tolerance << ")";
    throw InputError(os.str());
  }
}

// The result from the sums about `origin`, with the parallel-axis shift to the
// centre of mass: \int r r^T dV = S - V d d^T for r = x - d, d = \int x dV / V.
template <class T>
MassProperties<T> finish(const Moments<T>& sums, const Vec3<T>& origin, const T& density, const T& error_bound,
                         const std::string& name) {
  using std::isfinite;
  // The integrands grow as R^3, R^4, R^5 (R: the surface's extent about the
  // origin): for double, beyond about 1e61 m the second moments overflow.
  const auto overflow = [&](const char* quantity) {
    std::ostringstream os;
    os << name << ": " << quantity << " overflows: not representable in this precision (volume and its first and "
       << "second moments grow as the 3rd, 4th and 5th power of the surface's size; density " << double(density)
       << " kg/m^3)";
    throw ComputationError(os.str());
  };
  if (!isfinite(sums.volume) || !isfinite(sums.absolute) || !isfinite(sums.area)) overflow("the volume");
  if (!sums.first.allFinite()) overflow("the centre of mass (the first moment of volume)");
  if (!sums.second.allFinite()) overflow("the inertia (the second moment of volume)");
  if (!(sums.volume > 0)) {
    std::ostringstream os;
    os << name << ": the surface is inside out or degenerate (volume " << sums.volume
       << " <= 0): its normals c_s x c_t point inward; reverse the orientation of its faces";
    throw InputError(os.str());
  }
  MassProperties<T> result;
  result.volume = sums.volume;
  result.mass = density * sums.volume;
  const Vec3<T> offset = sums.first / sums.volume;
  result.centre_of_mass = origin + offset;
  const Mat3<T> second = sums.second - sums.volume * (offset * offset.transpose());
  result.inertia_com = density * (second.trace() * Mat3<T>::Identity() - second);
  result.error_bound = error_bound;
  if (!isfinite(result.mass)) overflow("the mass (density times volume)");
  if (!result.centre_of_mass.allFinite()) overflow("the centre of mass");
  if (!result.inertia_com.allFinite()) overflow("the inertia (density times the second moment of volume)");
  if (!isfinite(result.error_bound)) overflow("the error bound of the volume");
  return result;
}

// Worst-case round-off (Higham 2002, 4.2): each term passes through at most
// `additions` sums, plus 256 roundings to evaluate it (the jet's derivatives
// lose up to ~ R / h of their relative accuracy to cancellation, h the size of
// a piece), each relative to \oint |x.n| dA / 3.
template <class T>
T round_off(const Moments<T>& sums, int additions) {
  return T(additions + 256) * epsilon<T>() * sums.absolute;
}

}  // namespace

template <class T>
MassProperties<T> mass_properties(const LoopSurface<T>& surface, const T& density, const MassPropertiesOptions<T>& options) {
  using std::max;
  const std::string name = surface.name();
  check_input(density, options, name);
  // The origin: the centroid of the control points; R bounds |x - origin| on
  // the surface, which lies in their convex hull.
  Vec3<T> origin = Vec3<T>::Zero();
  for (const Vec3<T>& point : surface.control_points()) origin += point;
  origin /= T(surface.control_points().size());
  T radius = T(0);
  for (const Vec3<T>& point : surface.control_points()) radius = max(radius, T((point - origin).norm()));

  const TriangleRule<T> rule = triangle_rule<T>();
  const MeshTopology& topology = surface.topology();
  Moments<T> total;
  T tail_area = T(0);
  int most_pieces = 0;
  for (int f = 0; f < surface.face_count(); ++f) {
    const Patch<T>& patch = surface.patch(f);
    const std::vector<Vec2<T>>& P = patch.domain().polygon;
    const auto valence = [&](std::size_t k) { return topology.valence(topology.face(f)[k]); };
    // The triangles on which the patch is polynomial or has one EV at its
    // first corner, with that corner's valence.
    std::vector<std::pair<std::array<Vec2<T>, 3>, int>> triangles;
    if (surface.kind(f) == LoopPatchKind::kSplit) {  // children as in LoopSplitPatch
      const std::array<Vec2<T>, 3> mid = {(P[0] + P[1]) / 2, (P[1] + P[2]) / 2, (P[2] + P[0]) / 2};
      for (std::size_t k = 0; k < 3; ++k) triangles.push_back({{P[k], mid[k], mid[(k + 2) % 3]}, valence(k)});
      triangles.push_back({mid, 6});
    } else {
      std::size_t c = 0;
      while (c < 2 && valence(c) == 6) ++c;
      triangles.push_back({{P[c], P[(c + 1) % 3], P[(c + 2) % 3]}, valence(c)});
    }
    Moments<T> face;
    int pieces = 0;
    for (const auto& [corners, corner_valence] : triangles) {
      if (corner_valence == 6) {
        face.add(integrate_triangle(patch, corners, origin, rule));
        ++pieces;
      } else {
        T tail = T(0);
        const T lambda = loop_eigenstructure<T>(corner_valence).eigenvalues(1);
        face.add(integrate_extraordinary(patch, corners, lambda, origin, rule, options, tail, pieces));
        tail_area += tail;
      }
    }
    most_pieces = std::max(most_pieces, pieces);
    total.add(face);
  }
  // The neglected discs: |x.n| / 3 <= R |n| / 3 there.
  const T truncation = radius * tail_area / 3;
  const int additions = int(rule.points.size()) + most_pieces + surface.face_count();
  return finish(total, origin, density, T(truncation + round_off(total, additions)), name);
}

template <class T>
MassProperties<T> mass_properties(const Patch<T>& closed_chart, const T& density, const MassPropertiesOptions<T>& options) {
  using std::abs;
  using std::isfinite;
  using std::max;
  const std::string name = "mass_properties (" + closed_chart.describe() + ")";
  check_input(density, options, name);
  const Domain<T>& domain = closed_chart.domain();
  const auto bounded = [](const Interval<T>& range) { return isfinite(range.lo) && isfinite(range.hi) && range.hi > range.lo; };
  if (domain.is_polygon() || !bounded(domain.s) || !bounded(domain.t)) {
    throw InputError(name + ": not a closed chart (both parameter intervals must be finite)");
  }
  // Nodes and weights along one parameter: midpoint rule if periodic, else Gauss-Legendre.
  const auto line = [](const Interval<T>& range, int n) {
    std::vector<std::pair<T, T>> rule;
    const T length = range.hi - range.lo;
    if (range.periodic) {
      for (int k = 0; k < n; ++k) rule.emplace_back(range.lo + (T(k) + T(0.5)) * length / T(n), length / T(n));
    } else {
      for (const auto& [x, w] : gauss_legendre<T>(n)) rule.emplace_back(range.lo + x * length, w * length);
    }
    return rule;
  };
  const Vec3<T> origin = Vec3<T>::Zero();
  Moments<T> sums, previous;
  T change = std::numeric_limits<T>::infinity();
  int nodes = 0;
  for (int n = 4; n <= options.max_nodes; n *= 2) {
    previous = sums;
    sums = Moments<T>();
    for (const auto& [s, ws] : line(domain.s, n)) {
      Moments<T> row;
      for (const auto& [t, wt] : line(domain.t, n)) add_node(row, closed_chart.evaluate(s, t), origin, ws * wt);
      sums.add(row);
    }
    nodes = n;
    if (n == 4) continue;
    // The change in volume units (the scales of mass_properties.hpp's error_bound).
    const T R = sums.radius;
    change = max({T(abs(sums.volume - previous.volume)), T((sums.first - previous.first).norm() / (3 * R / 4)),
                  T((sums.second - previous.second).norm() / (3 * R * R / 5))});
    if (change <= options.tolerance * R * sums.area / 3) break;
  }
  // When the rules converge spectrally, the error of the last one is well
  // below its change from the previous one (half as many nodes).
  return finish(sums, origin, density, T(change + round_off(sums, 2 * nodes)), name);
}

#define CONTACTREF_INSTANTIATE(T) \
  template TriangleRule<T> triangle_rule<T>(); \
  template MassProperties<T> mass_properties<T>(const LoopSurface<T>&, const T&, const MassPropertiesOptions<T>&); \
  template MassProperties<T> mass_properties<T>(const Patch<T>&, const T&, const MassPropertiesOptions<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
