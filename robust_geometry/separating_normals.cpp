#include "robust_geometry/separating_normals.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstddef>

namespace contactref::robust_geometry::detail {

namespace {

// Distinct directions, each scaled to the unit box, in lexicographic order.
std::vector<Vec> canonical(const std::vector<Vec>& directions) {
  std::vector<Vec> out;
  for (const Vec& d : directions)
    if (!is_zero(d)) out.push_back(scaled_to_unit_box(d));
  std::sort(out.begin(), out.end(), lexicographic_less);
  out.erase(std::unique(out.begin(), out.end(), same), out.end());
  return out;
}

// One pair of convex pieces: S(P, Q) = {n : m . n <= 0 for every row m}.
struct Pair {
  std::vector<Vec> rows;
  std::vector<Vec> candidates;
};

bool covers(const Pair& pair, const Vec& n) {
  return std::all_of(pair.rows.begin(), pair.rows.end(), [&](const Vec& m) { return dot_sign(m, n) <= 0; });
}

std::vector<Vec> rows_of(const ConvexCone& p, const ConvexCone& q) {
  std::vector<Vec> rows = p.rays;
  for (const Vec& r : q.rays) rows.push_back(neg(r));
  return rows;
}

std::vector<Eigen::Vector3d> units(const std::vector<Vec>& directions) {
  std::vector<Eigen::Vector3d> out;
  for (const Vec& d : directions) out.push_back(unit_vector(d));
  return out;
}

// The `count` maximally transversal directions of `normals` (largest |det| of
// the unit vectors for three, largest |sin| for two, the first for one), all
// of them when there are no more than `count`; in lexicographic order.
std::vector<Vec> maximally_transversal(std::vector<Vec> normals, std::size_t count) {
  normals = canonical(normals);
  if (normals.size() <= count) return normals;
  const std::vector<Eigen::Vector3d> u = units(normals);
  const std::size_t n = normals.size();
  if (count == 1) return {normals.front()};
  if (count == 2) {
    std::size_t bi = 0, bj = 1;
    double best = -1;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        if (const double s = u[i].cross(u[j]).norm(); s > best) {
          best = s;
          bi = i;
          bj = j;
        }
    return {normals[bi], normals[bj]};
  }
  std::array<std::size_t, 3> best_triple{0, 1, 2};
  double best = -1;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = j + 1; k < n; ++k)
        if (const double det = std::abs(u[i].dot(u[j].cross(u[k]))); det > best) {
          best = det;
          best_triple = {i, j, k};
        }
  return {normals[best_triple[0]], normals[best_triple[1]], normals[best_triple[2]]};
}

}  // namespace

std::optional<Eigen::Vector3d> separating_bisector(const ConvexCone& p, const ConvexCone& q) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (const Vec& r : cone_rays(rows_of(p, q))) sum += unit_vector(r);
  if (sum.norm() == 0) return std::nullopt;
  return sum.normalized();
}

PieceNormals piece_normals(const std::vector<ConvexCone>& a_pieces, const std::vector<ConvexCone>& b_pieces,
                           const std::vector<Vec>& a_face_normals, std::size_t max_normals) {
  PieceNormals out;
  std::vector<Pair> pairs;
  for (const ConvexCone& p : a_pieces)
    for (const ConvexCone& q : b_pieces) {
      Pair pair{rows_of(p, q), {}};
      const std::vector<Vec> rays = cone_rays(pair.rows);
      if (rays.empty()) {
        out.overlapping = true;
        continue;
      }
      // The support planes of the non-convex side first (A's outward, B's
      // inward), then of the other side.
      std::vector<Vec> first, second;
      for (const Vec& m : p.facets) (a_pieces.size() > 1 ? first : second).push_back(m);
      for (const Vec& m : q.facets) (b_pieces.size() > 1 ? first : second).push_back(neg(m));
      for (const std::vector<Vec>* planes : {&first, &second}) {
        for (const Vec& c : canonical(*planes))
          if (covers(pair, c)) pair.candidates.push_back(c);
        if (!pair.candidates.empty()) break;
      }
      if (pair.candidates.empty()) {
        Vec sum{FT(0), FT(0), FT(0)};
        for (const Vec& r : rays) sum = add(sum, r);
        pair.candidates.push_back(scaled_to_unit_box(sum));
      }
      pairs.push_back(std::move(pair));
    }
  std::vector<Vec> universe;
  for (const Pair& pair : pairs) universe.insert(universe.end(), pair.candidates.begin(), pair.candidates.end());
  universe = canonical(universe);

  std::vector<Vec> chosen;
  std::vector<const Pair*> uncovered;
  for (const Pair& pair : pairs) uncovered.push_back(&pair);
  const auto choose = [&](const std::vector<Vec>& normals) {
    chosen.insert(chosen.end(), normals.begin(), normals.end());
    std::erase_if(uncovered, [&](const Pair* pair) {
      return std::any_of(normals.begin(), normals.end(), [&](const Vec& n) { return covers(*pair, n); });
    });
  };
  // Forced: the only candidate of some pair (all at once: independent of the
  // order of the pairs).
  std::vector<Vec> forced;
  for (const Pair& pair : pairs)
    if (pair.candidates.size() == 1) forced.push_back(pair.candidates.front());
  choose(canonical(forced));
  // c1 imposes no more than c2 where c1 . d >= 0 follows from c2 and the
  // normals chosen (Farkas: c1 in cone(chosen, c2)).
  const auto no_stricter = [&](const Vec& c1, const Vec& c2) {
    std::vector<Vec> generators = chosen;
    generators.push_back(c2);
    return in_polar(c1, halfspaces(generators));
  };
  while (!uncovered.empty()) {
    std::vector<const Vec*> best;  // the candidates covering the most pairs
    std::size_t best_count = 1;
    for (const Vec& c : universe) {
      const std::size_t count = std::size_t(
          std::count_if(uncovered.begin(), uncovered.end(), [&](const Pair* pair) { return covers(*pair, c); }));
      if (count > best_count) best.clear();
      if (count >= best_count) {
        best.push_back(&c);
        best_count = count;
      }
    }
    // Every uncovered pair is covered by its own candidates: best is not
    // empty. The first (lexicographically) that no other is strictly less
    // restrictive than.
    const auto strictly_less_restrictive = [&](const Vec* other, const Vec* c) {
      return no_stricter(*other, *c) && !no_stricter(*c, *other);
    };
    const Vec* pick = best.front();
    for (const Vec* c : best)
      if (std::none_of(best.begin(), best.end(), [&](const Vec* other) { return strictly_less_restrictive(other, c); })) {
        pick = c;
        break;
      }
    choose({*pick});
  }
  chosen = canonical(chosen);
  if (chosen.empty()) chosen = a_face_normals;
  out.normals = units(maximally_transversal(chosen, max_normals));
  return out;
}

}  // namespace contactref::robust_geometry::detail
