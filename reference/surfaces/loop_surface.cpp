#include "reference/surfaces/loop_surface.hpp"

#include <boost/math/constants/constants.hpp>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "core/errors.hpp"
#include "reference/surfaces/loop_rules.hpp"
#include "reference/surfaces/loop_subdivision.hpp"

namespace contactref::surfaces {
namespace {

template <class T>
Domain<T> unit_triangle() {
  return Domain<T>::make_polygon({Vec2<T>(0, 0), Vec2<T>(1, 0), Vec2<T>(0, 1)});
}

// The affine map from face parameters (u, v) to the parameters of the same
// face seen from corner c (corner c at the origin, the next corner at (1, 0)):
// local = J (u, v) + offset.
template <class T>
std::pair<Mat2<T>, Vec2<T>> corner_map(int corner) {
  Mat2<T> J;
  switch (corner) {
    case 0: J << 1, 0, 0, 1; return {J, Vec2<T>(0, 0)};
    case 1: J << 0, 1, -1, -1; return {J, Vec2<T>(0, 1)};   // (a, b) = (v, 1 - u - v)
    default: J << -1, -1, 1, 0; return {J, Vec2<T>(1, 0)};  // (a, b) = (1 - u - v, u)
  }
}

// 2^k exactly: a normal double built from its exponent bits where one holds
// it (ldexp is a library call, a tenth of an extraordinary evaluation).
template <class T>
T power_of_two(int k) {
  using std::ldexp;
  if (k >= -1022 && k <= 1023) return T(std::bit_cast<double>(std::uint64_t(1023 + k) << 52));
  return ldexp(T(1), k);
}

// x^e for an integer e >= 0, by squaring.
template <class T>
T integer_power(T x, int e) {
  T result = T(1);
  for (; e > 0; e >>= 1, x *= x)
    if (e & 1) result *= x;
  return result;
}

template <class T>
class LoopRegularPatch final : public Patch<T> {
 public:
  LoopRegularPatch(const RegularControl<T>& control, std::string name)
      : polynomial_(regular_patch_polynomial(control)), domain_(unit_triangle<T>()), name_(std::move(name)) {}
  PatchJet<T> evaluate(const T& u, const T& v) const override { return quartic_jet(polynomial_, u, v); }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return name_ + " (regular)"; }

 private:
  QuarticCoefficients<T> polynomial_;
  Domain<T> domain_;
  std::string name_;
};

// Where Stam's evaluation puts the local point (a, b), a + b > 0: level
// n = max(1, floor(1 - log2(a + b))) and child 1, 2 or 3 of the EV patch
// after n - 1 subdivisions (a1, b1) = 2^(n-1) (a, b): 1 if a1 > 1/2, 2 if
// b1 > 1/2, the middle one otherwise.
template <class T>
std::pair<int, int> stam_piece(const T& a, const T& b) {
  using std::frexp;
  // a + b = m 2^e with m in [1/2, 1), exactly: floor(1 - log2(a + b)) is
  // 2 - e at m = 1/2 and 1 - e otherwise.
  int e = 0;
  const T m = frexp(a + b, &e);
  const int n = std::max(1, m == T(0.5) ? 2 - e : 1 - e);
  const T scale = power_of_two<T>(n - 1);
  if (scale * a > T(0.5)) return {n, 1};
  if (scale * b > T(0.5)) return {n, 2};
  return {n, 3};
}

// The triangle of a Stam piece in local parameters, counter-clockwise.
template <class T>
std::vector<Vec2<T>> stam_piece_triangle(int level, int child) {
  using std::ldexp;
  static constexpr std::array<std::array<std::array<double, 2>, 3>, 3> kChildTriangles = {
      {{{{0.5, 0}, {1, 0}, {0.5, 0.5}}}, {{{0, 0.5}, {0.5, 0.5}, {0, 1}}}, {{{0.5, 0}, {0.5, 0.5}, {0, 0.5}}}}};
  std::vector<Vec2<T>> triangle;
  for (const auto& corner : kChildTriangles[std::size_t(child - 1)])
    triangle.push_back(Vec2<T>(ldexp(T(corner[0]), 1 - level), ldexp(T(corner[1]), 1 - level)));
  return triangle;
}

// A point a relative distance 2^-24 of the piece's size beyond (s, t) along
// direction: far beyond the round-off of a located piece crossing, far
// inside the next piece.
template <class T>
Vec2<T> nudged(const Vec2<T>& x, const Vec2<T>& direction, const T& piece_size) {
  using std::ldexp;
  const T norm = direction.norm();
  if (!(norm > T(0))) return x;
  return x + (ldexp(piece_size, -24) / norm) * direction;
}

// Stam's evaluation. In local parameters (a, b) with the EV at the origin,
// level n = floor(1 - log2(a + b)) >= 1 puts 2^(n-1) (a, b) in one of the
// regular children k = 1, 2, 3 of the EV patch after n - 1 subdivisions,
// whose 12 control points are pick_k A^(n-1) C0. A derivative of order p gains
// 2^(n-1) per level and the child map's factor (+-2) per order.
//  - A diagonalisable (every valence but 3): A^(n-1) = V diag(lambda)^(n-1) V^-1,
//    accumulated per eigen-component as lambda^(n-1) 2^((n-1) p) =
//    (2^p lambda)^(n-1), so that no overflow meets an underflow. The
//    eigenvalue-1 component is constant (partition of unity), so it is left
//    out of the derivatives: its round-off would be amplified by 2^((n-1) p).
//  - Otherwise: the control points of every level, less the limit position
//    (A preserves constants), are precomputed by explicit powers, down to
//    2^-kLevels (below which no point of T is distinct from the EV at unit
//    scale).
// The children's quartics of the first kCachedLevels levels (the patch down to
// 2^-kCachedLevels from the EV, where nearly all evaluations fall) are
// computed once per level, on first use, from the same formulas, relative to
// the limit position.
template <class T>
class LoopExtraordinaryPatch final : public Patch<T> {
 public:
  LoopExtraordinaryPatch(const DynamicMatrix<T>& control, int corner, std::string vertex, std::string name)
      : singular_{{corner, std::move(vertex)}},
        eig_(loop_eigenstructure<T>(int(control.rows()) - 6)), domain_(unit_triangle<T>()), name_(std::move(name)) {
    std::tie(J_, offset_) = corner_map<T>(corner);
    J_inverse_ = J_.inverse();  // integer entries, det 1
    corner_jet_map_ = AffineJetMap<T>(J_);
    limit_ = (eig_.limit_mask.transpose() * control).transpose();
    if (eig_.diagonalisable) {
      eigen_control_ = eig_.V_inverse * control;
    } else {
      level_control_.push_back(control.rowwise() - limit_.transpose());
      for (int level = 1; level <= kLevels; ++level) level_control_.push_back(eig_.A * level_control_.back());
    }
  }

  PatchJet<T> evaluate(const T& u, const T& v) const override {
    const Vec2<T> local = J_ * Vec2<T>(u, v) + offset_;
    if (!(local.x() + local.y() > T(0))) {
      throw ComputationError(describe() + ": the derivatives at the extraordinary vertex itself are not defined by "
                             "Stam's parameterisation (its limit position and normal are: see LoopSurface)");
    }
    return evaluate_local(local.x(), local.y(), stam_piece(local.x(), local.y()));
  }
  PatchJet<T> evaluate_piece(const T& u, const T& v, const Vec2<T>& inside) const override {
    const Vec2<T> local = J_ * Vec2<T>(u, v) + offset_;
    const Vec2<T> local_inside = J_ * inside + offset_;
    if (!(local_inside.x() + local_inside.y() > T(0))) return evaluate(u, v);
    return evaluate_local(local.x(), local.y(), stam_piece(local_inside.x(), local_inside.y()));
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override {
    return name_ + " (extraordinary, valence " + std::to_string(eig_.valence) + ")";
  }
  std::vector<typename Patch<T>::SingularCorner> singular_corners() const override { return singular_; }
  // The piece of Stam's evaluation: one of three triangles in the ring
  // 2^-n <= a + b <= 2^(1-n) (local parameters; the corner map has det 1).
  std::vector<Vec2<T>> smooth_piece(const T& u, const T& v, const Vec2<T>& direction) const override {
    const Vec2<T> local = J_ * Vec2<T>(u, v) + offset_;
    const Vec2<T> local_direction = J_ * direction;
    const T sum = local.x() + local.y();
    const T size = sum > T(0) ? sum : T(1);
    const Vec2<T> probe = nudged(local, local_direction, size);
    if (!(probe.x() + probe.y() > T(0))) return domain_.polygon;  // at the EV, not moving: no piece is distinguished
    const auto [level, child] = stam_piece(probe.x(), probe.y());
    std::vector<Vec2<T>> piece = stam_piece_triangle<T>(level, child);
    for (Vec2<T>& x : piece) x = J_inverse_ * (x - offset_);
    return piece;
  }

 private:
  static constexpr int kLevels = std::numeric_limits<T>::digits + 8;
  static constexpr int kCachedLevels = 10;

  // A^level C0 less the limit position in every row (K x 3).
  DynamicMatrix<T> relative_control(int level) const {
    if (!eig_.diagonalisable) return level_control_[std::size_t(level)];
    DynamicMatrix<T> scaled = eigen_control_;
    scaled.row(0).setZero();  // eigenvalue(0) = 1: the limit position
    for (Eigen::Index j = 1; j < scaled.rows(); ++j) scaled.row(j) *= integer_power(eig_.eigenvalues(j), level);
    return eig_.V * scaled;
  }

  // The children's quartics at level n <= kCachedLevels, computed on first
  // use: a surface is built for every CLI run and simulation start, and most
  // of its patches are never evaluated at most levels. Each is composed with
  // the linear part of the map from the patch's (u, v) to the child's (s, t),
  // child_linear_map, so that its jets are the patch's with no chain rule
  // left to apply (substitute_linear).
  const std::array<QuarticCoefficients<T>, 3>& cached_children(int n) const {
    const std::size_t i = std::size_t(n - 1);
    std::call_once(cached_once_[i], [&] {
      const DynamicMatrix<T> relative = relative_control(n - 1);
      for (std::size_t k = 0; k < 3; ++k)
        cached_[i][k] = substitute_linear(
            regular_patch_polynomial(RegularControl<T>((eig_.pick[k] * relative).transpose())),
            child_linear_map(n, int(k) + 1));
    });
    return cached_[i];
  }

  // The linear part of (u, v) -> (s, t) for piece (n, child): (a, b) = J (u, v)
  // + offset, then (s, t) = sign 2^n (a, b) + the child's offset.
  Mat2<T> child_linear_map(int n, int child) const {
    return (T(kLoopChildMaps[std::size_t(child)].sign_u) * power_of_two<T>(n)) * J_;
  }

  // The chain rule from a child's parameters at level n to local ones: a
  // derivative of order p gains (sign 2 2^(n-1))^p, a power of two (exact).
  static void scale_orders(PatchJet<T>& jet, int sign, int n) {
    const T per_order = T(sign) * power_of_two<T>(n);
    const std::array<T, 4> factor{T(1), per_order, per_order * per_order, per_order * per_order * per_order};
    for (int k = 1; k < kJetSize; ++k)
      jet.d.col(k) *= factor[std::size_t(kJetOrders[std::size_t(k)][0] + kJetOrders[std::size_t(k)][1])];
  }

  // The polynomial of piece (n, child) (stam_piece; child 1, 2, 3 as in
  // kLoopChildMaps) at local (a, b), inside that piece or not: its jet in the
  // patch's (u, v).
  PatchJet<T> evaluate_local(const T& a, const T& b, const std::pair<int, int>& piece) const {
    const auto [n, child] = piece;
    const T scale = power_of_two<T>(n - 1);
    const LoopChildMap& map = kLoopChildMaps[std::size_t(child)];
    const T s = T(map.sign_u) * 2 * (scale * a) + T(map.offset_u), t = T(map.sign_v) * 2 * (scale * b) + T(map.offset_v);
    if (n > kCachedLevels) {
      PatchJet<T> jet = corner_jet_map_(evaluate_deep(s, t, piece));
      check_finite(jet, a, b);
      return jet;
    }
    // The composed quartic at (x, y) = M^-1 (s, t), M = child_linear_map:
    // M^-1 = sign 2^-n J^-1, J^-1 integer (det 1), so one rounding.
    const Vec2<T> x = (T(map.sign_u) * power_of_two<T>(-n)) * (J_inverse_ * Vec2<T>(s, t));
    PatchJet<T> jet = quartic_jet(cached_children(n)[std::size_t(child - 1)], x.x(), x.y());
    jet.d.col(0) += limit_;
    check_finite(jet, a, b);
    return jet;
  }

  // Piece (n, child) beyond the cached levels at the child's (s, t): its jet
  // in local (a, b).
  PatchJet<T> evaluate_deep(const T& s, const T& t, const std::pair<int, int>& piece) const {
    const auto [n, child] = piece;
    const LoopChildMap& map = kLoopChildMaps[std::size_t(child)];
    PatchJet<T> jet;
    if (eig_.diagonalisable) {
      using std::ldexp;
      // weights(j, k): derivative k of child's surface for unit eigen-component j.
      const auto weights = quartic_jets(eig_.child_polynomials[std::size_t(child - 1)], s, t);
      const Eigen::Index K = eigen_control_.rows();
      // growth(j, p) = lambda_j^(n-1) 2^((n-1) p), built by multiplication so
      // that 2^((n-1) p) is never formed alone.
      Eigen::Matrix<T, Eigen::Dynamic, 4, 0, kMaxLoopControl, 4> growth(K, 4);
      for (Eigen::Index j = 0; j < K; ++j) growth(j, 0) = integer_power(eig_.eigenvalues(j), n - 1);
      for (int p = 1; p < 4; ++p) growth.col(p) = growth.col(p - 1) * power_of_two<T>(n - 1);
      growth.block(0, 1, 1, 3).setZero();  // eigenvalue(0) = 1: the constant component has no derivatives
      for (int k = 0; k < kJetSize; ++k) {
        const int p = kJetOrders[std::size_t(k)][0] + kJetOrders[std::size_t(k)][1];
        const T child_factor = ldexp(T(p % 2 == 1 ? map.sign_u : 1), p);  // (+-2)^p; sign_u == sign_v
        jet.d.col(k) = child_factor * (eigen_control_.transpose() * growth.col(p).cwiseProduct(weights.col(k)));
      }
      return jet;
    }
    if (n - 1 > kLevels) throw ComputationError(describe() + ": too close to the extraordinary vertex to evaluate");
    const RegularControl<T> child_control =
        (eig_.pick[std::size_t(child - 1)] * level_control_[std::size_t(n - 1)]).transpose();
    jet = quartic_jet(regular_patch_polynomial(child_control), s, t);
    scale_orders(jet, map.sign_u, n);
    jet.d.col(0) += limit_;
    return jet;
  }

  // ComputationError where the jet at local (a, b) overflowed.
  void check_finite(const PatchJet<T>& jet, const T& a, const T& b) const {
    if (!jet.d.allFinite()) {
      std::ostringstream os;
      os << describe() << ": derivatives overflow this close to the extraordinary vertex or with control points "
         << "this large, at local parameters (" << a << ", " << b << ")";
      throw ComputationError(os.str());
    }
  }

  std::vector<typename Patch<T>::SingularCorner> singular_;
  const LoopEigenstructure<T>& eig_;
  DynamicMatrix<T> eigen_control_;                // K x 3: V^-1 C0 (diagonalisable A)
  std::vector<DynamicMatrix<T>> level_control_;  // A^j C0 less the limit, j = 0..kLevels (otherwise)
  Vec3<T> limit_;                                 // the limit position of the EV
  // [level - 1][child - 1], relative to limit_, filled by cached_children.
  mutable std::array<std::array<QuarticCoefficients<T>, 3>, kCachedLevels> cached_;
  mutable std::array<std::once_flag, kCachedLevels> cached_once_;
  Mat2<T> J_, J_inverse_;
  Vec2<T> offset_;
  AffineJetMap<T> corner_jet_map_{Mat2<T>::Identity()};
  Domain<T> domain_;
  std::string name_;
};

// A face with several EVs: its four sub-patches after one subdivision.
template <class T>
class LoopSplitPatch final : public Patch<T> {
 public:
  LoopSplitPatch(std::array<std::unique_ptr<Patch<T>>, 4> children,
                 std::vector<typename Patch<T>::SingularCorner> singular, std::string name)
      : children_(std::move(children)),
        singular_(std::move(singular)),
        child_jet_maps_{child_jet_map(0), child_jet_map(1), child_jet_map(2), child_jet_map(3)},
        domain_(unit_triangle<T>()),
        name_(std::move(name)) {}

  PatchJet<T> evaluate(const T& u, const T& v) const override {
    const std::size_t child = child_at(u, v);
    const Vec2<T> x = to_child(child, Vec2<T>(u, v));
    return child_jet_maps_[child](children_[child]->evaluate(x.x(), x.y()));
  }
  PatchJet<T> evaluate_piece(const T& u, const T& v, const Vec2<T>& inside) const override {
    const std::size_t child = child_at(inside.x(), inside.y());
    const Vec2<T> x = to_child(child, Vec2<T>(u, v));
    return child_jet_maps_[child](children_[child]->evaluate_piece(x.x(), x.y(), to_child(child, inside)));
  }
  const Domain<T>& domain() const override { return domain_; }
  std::string describe() const override { return name_ + " (split into four sub-patches)"; }
  std::vector<typename Patch<T>::SingularCorner> singular_corners() const override { return singular_; }
  // The child's piece, mapped back: (u, v) = ((s, t) - offset) / (2 sign)
  // (the middle child's map is a point reflection, which keeps the orientation).
  std::vector<Vec2<T>> smooth_piece(const T& u, const T& v, const Vec2<T>& direction) const override {
    const Vec2<T> probe = nudged(Vec2<T>(u, v), direction, T(1));
    const std::size_t child = child_at(probe.x(), probe.y());
    const Vec2<T> x = to_child(child, Vec2<T>(u, v));
    std::vector<Vec2<T>> piece = children_[child]->smooth_piece(x.x(), x.y(), T(kLoopChildMaps[child].sign_u) * direction);
    for (Vec2<T>& corner : piece) corner = from_child(child, corner);
    return piece;
  }

 private:
  // A face point in the child's parameters, sign 2 (u, v) + offset
  // (kLoopChildMaps; sign_u == sign_v), and back.
  static Vec2<T> to_child(std::size_t child, const Vec2<T>& x) {
    const LoopChildMap& map = kLoopChildMaps[child];
    return Vec2<T>(T(map.sign_u) * 2 * x.x() + T(map.offset_u), T(map.sign_v) * 2 * x.y() + T(map.offset_v));
  }
  static Vec2<T> from_child(std::size_t child, const Vec2<T>& x) {
    const LoopChildMap& map = kLoopChildMaps[child];
    return Vec2<T>((x.x() - T(map.offset_u)) / (2 * map.sign_u), (x.y() - T(map.offset_v)) / (2 * map.sign_v));
  }
  static std::size_t child_at(const T& u, const T& v) {
    if (u >= T(0.5)) return 1;
    if (v >= T(0.5)) return 2;
    if (u + v <= T(0.5)) return 0;
    return 3;
  }
  static AffineJetMap<T> child_jet_map(std::size_t child) {
    Mat2<T> J;
    J << T(2 * kLoopChildMaps[child].sign_u), T(0), T(0), T(2 * kLoopChildMaps[child].sign_v);
    return AffineJetMap<T>(J);
  }

  std::array<std::unique_ptr<Patch<T>>, 4> children_;
  std::vector<typename Patch<T>::SingularCorner> singular_;  // the face's extraordinary corners
  std::array<AffineJetMap<T>, 4> child_jet_maps_;
  Domain<T> domain_;
  std::string name_;
};

template <class T>
DynamicMatrix<T> gather(const std::vector<Vec3<T>>& positions, const std::vector<int>& ids) {
  DynamicMatrix<T> control(Eigen::Index(ids.size()), 3);
  for (std::size_t k = 0; k < ids.size(); ++k) control.row(Eigen::Index(k)) = positions[std::size_t(ids[k])].transpose();
  return control;
}

// The four sub-patches of face f after one subdivision of the local mesh made
// of the faces around its three corners.
template <class T>
std::unique_ptr<Patch<T>> make_split_patch(const MeshTopology& topology, const std::vector<Vec3<T>>& positions, int face,
                                           std::vector<typename Patch<T>::SingularCorner> singular,
                                           const std::string& name) {
  std::set<int> local_faces;
  for (int corner : topology.face(face)) {
    const std::vector<int> ring = topology.ring(corner);
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const int h = topology.half_edge(corner, ring[i]);
      local_faces.insert(h / 3);
    }
  }
  std::map<int, int> local_of;  // global vertex -> local
  std::vector<Vec3<T>> local_positions;
  std::vector<std::array<int, 3>> faces;
  int face_local = -1;
  for (int g : local_faces) {
    std::array<int, 3> f{};
    for (std::size_t k = 0; k < 3; ++k) {
      const int v = topology.face(g)[k];
      auto [it, inserted] = local_of.emplace(v, int(local_positions.size()));
      if (inserted) local_positions.push_back(positions[std::size_t(v)]);
      f[k] = it->second;
    }
    if (g == face) face_local = int(faces.size());
    faces.push_back(f);
  }
  const MeshTopology local(int(local_positions.size()), faces, true, name + " local mesh");
  const SubdivisionStep<T> step = loop_subdivide<T>(local);
  const MeshTopology fine(int(step.weights.size()), step.faces, true, name + " subdivided local mesh");
  std::vector<Vec3<T>> fine_positions(step.weights.size(), Vec3<T>::Zero());
  for (std::size_t v = 0; v < step.weights.size(); ++v)
    if (step.valid(int(v))) fine_positions[v] = step.apply(int(v), local_positions);
  std::array<std::unique_ptr<Patch<T>>, 4> children;
  for (int k = 0; k < 4; ++k)
    children[std::size_t(k)] = make_loop_patch<T>(fine, fine_positions, 4 * face_local + k, name + " child " + std::to_string(k));
  return std::make_unique<LoopSplitPatch<T>>(std::move(children), std::move(singular), name);
}

}  // namespace

template <class T>
std::unique_ptr<Patch<T>> make_loop_patch(const MeshTopology& topology, const std::vector<Vec3<T>>& positions, int face,
                                          const std::string& name) {
  const auto& corners = topology.face(face);
  std::vector<typename Patch<T>::SingularCorner> singular;  // the extraordinary corners
  for (int k = 0; k < 3; ++k) {
    const int vertex = corners[std::size_t(k)];
    if (topology.valence(vertex) == 6) continue;
    singular.push_back({k, "vertex " + std::to_string(vertex) + " (valence " + std::to_string(topology.valence(vertex)) + ")"});
  }
  if (singular.empty()) {
    const DynamicMatrix<T> control = gather(positions, loop_patch_neighbourhood(topology, corners[0], corners[1], corners[2]));
    return std::make_unique<LoopRegularPatch<T>>(RegularControl<T>(control.transpose()), name);
  }
  if (singular.size() == 1) {
    const int c = singular[0].corner;
    const std::vector<int> ids = loop_patch_neighbourhood(topology, corners[std::size_t(c)], corners[std::size_t((c + 1) % 3)],
                                                          corners[std::size_t((c + 2) % 3)]);
    return std::make_unique<LoopExtraordinaryPatch<T>>(gather(positions, ids), c, singular[0].vertex, name);
  }
  return make_split_patch<T>(topology, positions, face, std::move(singular), name);
}

template <class T>
LoopSurface<T>::LoopSurface(const TriangleMesh& mesh, const std::string& name)
    : topology_(mesh, name), name_(name) {
  check_mesh_geometry(mesh, name);  // after the topology check: it reads the faces' corners
  for (int v = 0; v < topology_.vertex_count(); ++v) {
    if (topology_.valence(v) < 3 || topology_.valence(v) > kMaxLoopValence) {
      throw InputError(located(name, mesh.vertex_line(v)) + "vertex " + std::to_string(v) + " has valence " + std::to_string(topology_.valence(v)) +
                       "; Loop surfaces here support 3 to " + std::to_string(kMaxLoopValence));
    }
  }
  for (const auto& x : mesh.vertices) positions_.push_back(x.cast<T>());
  for (int f = 0; f < topology_.face_count(); ++f) {
    int extraordinary = 0;
    for (int v : topology_.face(f)) extraordinary += topology_.valence(v) != 6;
    kinds_.push_back(extraordinary == 0 ? LoopPatchKind::kRegular
                                        : extraordinary == 1 ? LoopPatchKind::kExtraordinary : LoopPatchKind::kSplit);
    complex_.patches.push_back(make_loop_patch<T>(topology_, positions_, f, name + " face " + std::to_string(f)));
    std::vector<EdgeLink> links;
    for (int e = 0; e < 3; ++e) {
      const int twin = topology_.twin(3 * f + e);
      links.push_back({twin / 3, twin % 3});
    }
    complex_.links.push_back(links);
  }
}

template <class T>
int LoopSurface<T>::extraordinary_vertex_at(int face, const T& u, const T& v) const {
  // Corner k of the face sits at (0, 0), (1, 0), (0, 1).
  const int corner = u == T(0) && v == T(0) ? 0 : u == T(1) && v == T(0) ? 1 : u == T(0) && v == T(1) ? 2 : -1;
  if (corner < 0) return -1;
  const int vertex = topology_.face(face)[std::size_t(corner)];
  return topology_.valence(vertex) == 6 ? -1 : vertex;
}

template <class T>
Vec3<T> LoopSurface<T>::limit_position(int vertex) const {
  const std::vector<int> ring = topology_.ring(vertex);
  const int N = int(ring.size());
  const T w = loop_limit_edge_weight<T>(N);
  Vec3<T> x = (T(1) - T(N) * w) * positions_[std::size_t(vertex)];
  for (int n : ring) x += w * positions_[std::size_t(n)];
  return x;
}

template <class T>
Vec3<T> LoopSurface<T>::limit_normal(int vertex) const {
  const auto [t1, t2] = limit_tangents(vertex);
  return t1.cross(t2);
}

template <class T>
std::pair<Vec3<T>, Vec3<T>> LoopSurface<T>::limit_tangents(int vertex) const {
  using std::cos;
  using std::sin;
  const std::vector<int> ring = topology_.ring(vertex);
  const int N = int(ring.size());
  Vec3<T> t1 = Vec3<T>::Zero(), t2 = Vec3<T>::Zero();
  for (int i = 0; i < N; ++i) {
    const T angle = 2 * boost::math::constants::pi<T>() * T(i) / T(N);
    t1 += cos(angle) * positions_[std::size_t(ring[std::size_t(i)])];
    t2 += sin(angle) * positions_[std::size_t(ring[std::size_t(i)])];
  }
  return {t1, t2};
}

#define CONTACTREF_INSTANTIATE(T) \
  template class LoopSurface<T>; \
  template std::unique_ptr<Patch<T>> make_loop_patch<T>(const MeshTopology&, const std::vector<Vec3<T>>&, int, const std::string&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
