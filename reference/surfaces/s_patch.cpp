#include "reference/surfaces/s_patch.hpp"

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "reference/surfaces/loop_subdivision.hpp"
#include "reference/surfaces/triangle_bezier.hpp"

namespace contactref::surfaces {
namespace {

void append_bags(int sides, int degree, std::vector<int>& bag, std::vector<std::vector<int>>& bags) {
  if (int(bag.size()) == degree) {
    bags.push_back(bag);
    return;
  }
  for (int k = bag.empty() ? 0 : bag.back(); k < sides; ++k) {
    bag.push_back(k);
    append_bags(sides, degree, bag, bags);
    bag.pop_back();
  }
}

// C^2 matching, as in the thesis.
constexpr int kMatchedOrder = 2;

// The number of the bag's arguments off edge e (P_e to P_{e+1}).
int distance_from_edge(const std::vector<int>& bag, int edge, int sides) {
  int off = 0;
  for (int k : bag) off += k != edge && k != (edge + 1) % sides;
  return off;
}

// The barycentric coordinates of p in the triangle (a, b, c).
template <class T>
Vec3<T> barycentric(const std::array<Vec2<T>, 3>& triangle, const Vec2<T>& p) {
  Mat2<T> M;
  M << triangle[1] - triangle[0], triangle[2] - triangle[0];
  const Vec2<T> x = M.inverse() * (p - triangle[0]);
  return Vec3<T>(T(1) - x.x() - x.y(), x.x(), x.y());
}

// A Loop face's patch in the EV-local parameters (a, b) of its corner `corner`
// (loop_surface.cpp, corner_map, inverted): the face's own parameters are
// (u, v) = J (a, b) + offset.
template <class T>
class LoopQuadPatch final : public Patch<T> {
 public:
  LoopQuadPatch(std::unique_ptr<Patch<T>> face_patch, int corner, std::string name)
      : face_patch_(std::move(face_patch)),
        domain_(Domain<T>::make_polygon({Vec2<T>(0, 1), Vec2<T>(0, T(1) / 2), Vec2<T>(T(1) / 2, 0), Vec2<T>(1, 0)})),
        name_(std::move(name)) {
    switch (corner) {
      case 0: J_ << 1, 0, 0, 1; offset_ = Vec2<T>(0, 0); break;
      case 1: J_ << -1, -1, 1, 0; offset_ = Vec2<T>(1, 0); break;   // (u, v) = (1 - a - b, a)
      default: J_ << 0, 1, -1, -1; offset_ = Vec2<T>(0, 1); break;  // (u, v) = (b, 1 - a - b)
    }
    jet_map_ = AffineJetMap<T>(J_);
  }
  PatchJet<T> evaluate(const T& a, const T& b) const override {
    const Vec2<T> uv = J_ * Vec2<T>(a, b) + offset_;
    return jet_map_(face_patch_->evaluate(uv.x(), uv.y()));
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return name_; }

 private:
  std::unique_ptr<Patch<T>> face_patch_;
  Mat2<T> J_;
  Vec2<T> offset_;
  AffineJetMap<T> jet_map_{Mat2<T>::Identity()};
  Domain<T> domain_;
  std::string name_;
};

}  // namespace

template <class T>
std::vector<Vec2<T>> s_patch_polygon(int sides) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  if (sides < 3) throw InputError("S-patch: needs at least 3 sides, not " + std::to_string(sides));
  const T angle = 2 * boost::math::constants::pi<T>() / T(sides);
  const T R = sqrt(T(2) / (T(sides) * sin(angle)));
  std::vector<Vec2<T>> polygon;
  for (int k = 0; k < sides; ++k) polygon.emplace_back(R * cos(T(k) * angle), R * sin(T(k) * angle));
  return polygon;
}

std::vector<std::vector<int>> s_patch_bags(int sides, int degree) {
  if (sides < 3) throw InputError("S-patch: needs at least 3 sides, not " + std::to_string(sides));
  if (degree < 1) throw InputError("S-patch: the degree must be at least 1, not " + std::to_string(degree));
  std::vector<std::vector<int>> bags;
  std::vector<int> bag;
  append_bags(sides, degree, bag, bags);
  return bags;
}

template <class T>
SPatch<T>::SPatch(int sides, int degree, std::vector<Vec3<T>> control, std::string name)
    : degree_(degree),
      bags_(s_patch_bags(sides, degree)),
      control_(std::move(control)),
      domain_(Domain<T>::make_polygon(s_patch_polygon<T>(sides))),
      name_(std::move(name)) {
  using std::cos;
  if (control_.size() != bags_.size()) {
    throw InputError(name_ + ": an S-patch with " + std::to_string(sides) + " sides and degree " +
                     std::to_string(degree) + " has " + std::to_string(bags_.size()) + " control points, not " +
                     std::to_string(control_.size()));
  }
  for (std::size_t m = 0; m < control_.size(); ++m)
    if (!control_[m].allFinite()) throw InputError(name_ + ": control point " + std::to_string(m) + " is not finite");
  centre_ = Vec3<T>::Zero();
  for (const Vec3<T>& x : control_) centre_ += x / T(int(control_.size()));
  for (const Vec3<T>& x : control_) offsets_.push_back(x - centre_);
  for (std::size_t m = 0; m < bags_.size(); ++m) {
    int first = 0;
    if (m > 0)
      while (bags_[m][std::size_t(first)] == bags_[m - 1][std::size_t(first)]) ++first;
    first_changed_.push_back(first);
    // d! / prod i_k!: the bag is sorted, so equal vertices are consecutive.
    T multinomial = T(1);
    int run = 0;
    for (int r = 0; r < degree; ++r) {
      run = r > 0 && bags_[m][std::size_t(r)] == bags_[m][std::size_t(r - 1)] ? run + 1 : 1;
      multinomial = multinomial * T(r + 1) / T(run);
    }
    multinomial_.push_back(multinomial);
  }
  const auto& P = domain_.polygon;
  for (int k = 0; k < sides; ++k) {
    const Vec2<T>& a = P[std::size_t(k)];
    const Vec2<T>& b = P[std::size_t((k + 1) % sides)];
    // det[a 1; b 1; p 1] = (a_t - b_t) p_s + (b_s - a_s) p_t + a_s b_t - a_t b_s
    alpha_.emplace_back(a.y() - b.y(), b.x() - a.x(), a.x() * b.y() - a.y() * b.x());
  }
  const T angle = boost::math::constants::pi<T>() / T(sides);
  const T inradius = P[0].norm() * cos(angle);
  // Lines k and k + 2 meet at inradius / cos(2 angle) from the centre, beyond
  // the line of edge k + 1 by inradius (cos(angle) / cos(2 angle) - 1).
  outside_margin_ = inradius / 10;
  if (sides >= 5) outside_margin_ = std::min(outside_margin_, inradius * (cos(angle) / cos(2 * angle) - 1) / 2);
}

template <class T>
std::vector<TaylorJet<T>> SPatch<T>::embedding(const T& s, const T& t) const {
  const int n = sides();
  const Vec2<T> p(s, t);
  const T edge_length = (domain_.polygon[1] - domain_.polygon[0]).norm();
  for (int k = 0; k < n; ++k) {
    const T distance = domain_.edge_side(std::size_t(k), p) / edge_length;
    if (distance < -outside_margin_) {
      std::ostringstream os;
      os << name_ << ": (s, t) = (" << s << ", " << t << ") is outside the " << n << "-gon, at distance " << -distance
         << " beyond edge " << k;
      throw InputError(os.str());
    }
  }
  std::vector<TaylorJet<T>> alpha;
  for (const Vec3<T>& a : alpha_) alpha.push_back(TaylorJet<T>::affine(a(0) * s + a(1) * t + a(2), a(0), a(1)));
  std::vector<TaylorJet<T>> l(static_cast<std::size_t>(n));
  TaylorJet<T> sum;
  for (int k = 0; k < n; ++k) {
    // pi_k: the product of alpha_j over j = k+1, ..., k+n-2 (mod n) (5.14)
    TaylorJet<T> pi = alpha[std::size_t((k + 1) % n)];
    for (int j = 2; j < n - 1; ++j) pi = pi * alpha[std::size_t((k + j) % n)];
    l[std::size_t(k)] = pi;
    sum += pi;
  }
  const TaylorJet<T> inverse = reciprocal(sum);  // sum > 0 within the margin
  for (TaylorJet<T>& x : l) x = x * inverse;     // (5.15)
  return l;
}

template <class T>
PatchJet<T> SPatch<T>::evaluate(const T& s, const T& t) const {
  const std::vector<TaylorJet<T>> l = embedding(s, t);
  // prod_r l_{bag[r]} by prefixes: prefix[r] is the product of the first r
  // factors, recomputed only from where the bag differs from the previous one.
  std::vector<TaylorJet<T>> prefix(std::size_t(degree_ + 1));
  prefix[0] = TaylorJet<T>::constant(T(1));
  Eigen::Matrix<T, 3, kJetSize> sum = Eigen::Matrix<T, 3, kJetSize>::Zero();
  for (std::size_t m = 0; m < bags_.size(); ++m) {
    for (std::size_t r = std::size_t(first_changed_[m]); r < std::size_t(degree_); ++r)
      prefix[r + 1] = prefix[r] * l[std::size_t(bags_[m][r])];
    const TaylorJet<T>& monomial = prefix[std::size_t(degree_)];
    for (std::size_t k = 0; k < kJetSize; ++k)
      sum.col(Eigen::Index(k)) += (multinomial_[m] * monomial.c[k]) * offsets_[m];
  }
  PatchJet<T> jet;
  for (int k = 0; k < kJetSize; ++k) jet.d.col(k) = T(kJetFactorials[std::size_t(k)]) * sum.col(k);
  jet.d.col(0) += centre_;
  return jet;
}

template <class T>
std::string SPatch<T>::describe() const {
  return name_ + " (S-patch, " + std::to_string(sides()) + " sides, degree " + std::to_string(degree_) + ")";
}

template <class T>
std::array<Vec2<T>, 3> s_patch_neighbour_triangle(int sides, int edge, NeighbourPlacement placement) {
  using std::sqrt;
  const std::vector<Vec2<T>> P = s_patch_polygon<T>(sides);
  if (edge < 0 || edge >= sides)
    throw InputError("S-patch: no edge " + std::to_string(edge) + " in a " + std::to_string(sides) + "-gon");
  const Vec2<T>& a = P[std::size_t(edge)];
  const Vec2<T>& b = P[std::size_t((edge + 1) % sides)];
  const Vec2<T> middle = (a + b) / 2;
  const Vec2<T> apex = placement == NeighbourPlacement::kEquilateral
                           ? Vec2<T>(middle + sqrt(T(3)) / 2 * (b - a).norm() * middle.normalized())
                           : Vec2<T>(a + b);  // the centre (origin) reflected through the edge's midpoint
  return {apex, b, a};
}

template <class T>
SPatch<T> match_s_patch(const std::vector<QuarticCoefficients<T>>& neighbours, const SPatchMatching& matching,
                        const std::string& name) {
  const int n = int(neighbours.size());
  if (n < 3) throw InputError(name + ": an S-patch needs at least 3 neighbours, not " + std::to_string(n));
  const std::vector<Vec2<T>> P = s_patch_polygon<T>(n);
  // x[e][k]: polygon vertex P_k in the barycentric coordinates of T_e (5.19).
  std::vector<std::vector<Vec3<T>>> x(static_cast<std::size_t>(n));
  std::vector<QuarticBezier<T>> bezier;
  for (int e = 0; e < n; ++e) {
    const auto triangle = s_patch_neighbour_triangle<T>(n, e, matching.placement);
    for (const Vec2<T>& p : P) x[std::size_t(e)].push_back(barycentric(triangle, p));
    bezier.push_back(quartic_bezier_from_monomials(neighbours[std::size_t(e)]));
  }
  const auto blossom = [&](int e, const std::vector<int>& bag) {
    std::array<Vec3<T>, 4> arguments;
    for (std::size_t r = 0; r < 4; ++r) arguments[r] = x[std::size_t(e)][std::size_t(bag[r])];
    return quartic_blossom(bezier[std::size_t(e)], arguments);
  };
  const std::vector<std::vector<int>> bags = s_patch_bags(n, 4);
  std::vector<Vec3<T>> control;
  for (const std::vector<int>& bag : bags) {
    std::vector<int> chosen;  // the edges whose blossoms are averaged
    int nearest = kMatchedOrder + 1;
    for (int e = 0; e < n; ++e) {
      const int distance = distance_from_edge(bag, e, n);
      if (distance > kMatchedOrder) continue;  // C^2 matching sets the points within distance 2 of the edge
      if (matching.rule == SharedControlRule::kFirstComeFirstServed) {
        // The first edge that wants the point, unless a later one has it on its edge.
        if (chosen.empty() || (distance == 0 && nearest > 0)) chosen = {e};
        nearest = std::min(nearest, distance);
      } else if (distance < nearest) {
        chosen = {e};
        nearest = distance;
      } else if (distance == nearest) {
        chosen.push_back(e);
      }
    }
    if (chosen.empty())  // undetermined by C^2 matching (n >= 8): all neighbours
      for (int e = 0; e < n; ++e) chosen.push_back(e);
    Vec3<T> sum = Vec3<T>::Zero();
    for (int e : chosen) sum += blossom(e, bag);
    control.push_back(sum / T(int(chosen.size())));
  }
  return SPatch<T>(n, 4, std::move(control), name);
}

template <class T>
std::vector<QuarticCoefficients<T>> loop_centre_refinements(const LoopSurface<T>& surface, int vertex) {
  const MeshTopology& topology = surface.topology();
  if (vertex < 0 || vertex >= topology.vertex_count())
    throw InputError("S-patch replacement: no vertex " + std::to_string(vertex));
  const std::vector<int> ring = topology.ring(vertex);
  for (int neighbour : ring) {
    if (topology.valence(neighbour) != 6) {
      throw InputError("S-patch replacement of vertex " + std::to_string(vertex) + ": its neighbour " +
                       std::to_string(neighbour) + " has valence " + std::to_string(topology.valence(neighbour)) +
                       ", so a face around it has a second extraordinary vertex (subdivide the mesh once)");
    }
  }
  const int n = int(ring.size());
  const LoopEigenstructure<T>& eig = loop_eigenstructure<T>(n);
  std::vector<QuarticCoefficients<T>> centres;
  for (int k = 0; k < n; ++k) {
    const std::vector<int> ids =
        loop_patch_neighbourhood(topology, vertex, ring[std::size_t(k)], ring[std::size_t((k + 1) % n)]);
    DynamicMatrix<T> control(Eigen::Index(ids.size()), 3);
    for (std::size_t i = 0; i < ids.size(); ++i)
      control.row(Eigen::Index(i)) = surface.control_points()[std::size_t(ids[i])].transpose();
    centres.push_back(regular_patch_polynomial(RegularControl<T>((eig.pick[2] * control).transpose())));
  }
  return centres;
}

template <class T>
LoopSPatchReplacement<T> replace_loop_vertex(const LoopSurface<T>& surface, int vertex,
                                             const SPatchMatching& matching) {
  const std::string name = "S-patch at vertex " + std::to_string(vertex);
  const std::vector<QuarticCoefficients<T>> centres = loop_centre_refinements(surface, vertex);
  LoopSPatchReplacement<T> replacement;
  replacement.vertex = vertex;
  replacement.ring = surface.topology().ring(vertex);
  replacement.s_patch = std::make_unique<SPatch<T>>(match_s_patch(centres, matching, name));
  const int n = int(replacement.ring.size());
  for (int k = 0; k < n; ++k) {
    const int h = surface.topology().half_edge(vertex, replacement.ring[std::size_t(k)]);
    const int face = h / 3;
    replacement.faces.push_back(face);
    const std::string quad_name = "loop face " + std::to_string(face) + " next to the " + name;
    replacement.quads.push_back(std::make_unique<LoopQuadPatch<T>>(
        make_loop_patch<T>(surface.topology(), surface.control_points(), face, quad_name), h % 3, quad_name));
  }
  return replacement;
}

#define CONTACTREF_S_PATCH(T)                                                                            \
  template std::vector<Vec2<T>> s_patch_polygon<T>(int);                                                 \
  template class SPatch<T>;                                                                              \
  template std::array<Vec2<T>, 3> s_patch_neighbour_triangle<T>(int, int, NeighbourPlacement);           \
  template SPatch<T> match_s_patch<T>(const std::vector<QuarticCoefficients<T>>&, const SPatchMatching&, \
                                      const std::string&);                                               \
  template std::vector<QuarticCoefficients<T>> loop_centre_refinements<T>(const LoopSurface<T>&, int);   \
  template LoopSPatchReplacement<T> replace_loop_vertex<T>(const LoopSurface<T>&, int, const SPatchMatching&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_S_PATCH)
#undef CONTACTREF_S_PATCH

}  // namespace contactref::surfaces
