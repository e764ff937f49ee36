#include "reference/surfaces/loop_subdivision.hpp"

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "reference/surfaces/loop_rules.hpp"

namespace contactref::surfaces {

template <class T>
SubdivisionStep<T> loop_subdivide(const MeshTopology& topology) {
  SubdivisionStep<T> step;
  const int V = topology.vertex_count();
  step.old_count = V;
  step.weights.resize(std::size_t(V));
  for (int v = 0; v < V; ++v) {
    if (topology.on_boundary(v)) continue;  // incomplete ring: invalid
    const std::vector<int> ring = topology.ring(v);
    const int N = int(ring.size());
    const T beta = loop_beta<T>(N);
    auto& w = step.weights[std::size_t(v)];
    w.emplace_back(v, T(1) - T(N) * beta);
    for (int n : ring) w.emplace_back(n, beta);
  }
  // Odd vertices, numbered by undirected edge in half-edge order.
  std::vector<int> edge_vertex(std::size_t(3 * topology.face_count()), -1);
  for (int h = 0; h < 3 * topology.face_count(); ++h) {
    if (edge_vertex[std::size_t(h)] >= 0) continue;
    const int id = int(step.weights.size());
    edge_vertex[std::size_t(h)] = id;
    const int t = topology.twin(h);
    if (t >= 0) edge_vertex[std::size_t(t)] = id;
    std::vector<std::pair<int, T>> w;
    if (t >= 0) {
      const int p = topology.origin(h), q = topology.target(h);
      const int r = topology.face(h / 3)[std::size_t((h % 3 + 2) % 3)];
      const int s = topology.face(t / 3)[std::size_t((t % 3 + 2) % 3)];
      w = {{p, T(3) / 8}, {q, T(3) / 8}, {r, T(1) / 8}, {s, T(1) / 8}};
    }
    step.weights.push_back(std::move(w));
  }
  for (int f = 0; f < topology.face_count(); ++f) {
    const auto& [a, b, c] = topology.face(f);
    const int m_ab = edge_vertex[std::size_t(3 * f)], m_bc = edge_vertex[std::size_t(3 * f + 1)],
              m_ca = edge_vertex[std::size_t(3 * f + 2)];
    step.faces.push_back({a, m_ab, m_ca});
    step.faces.push_back({m_ab, b, m_bc});
    step.faces.push_back({m_ca, m_bc, c});
    step.faces.push_back({m_bc, m_ca, m_ab});
    step.face_points.push_back({a, b, c, m_ab, m_bc, m_ca});
  }
  return step;
}

std::vector<int> loop_patch_neighbourhood(const MeshTopology& topology, int p, int q, int r) {
  const auto fail = [&](const std::string& why) -> void {
    throw InputError("Loop patch over vertices " + std::to_string(p) + ", " + std::to_string(q) + ", " +
                     std::to_string(r) + ": " + why);
  };
  for (int v : {p, q, r})
    if (topology.on_boundary(v)) fail("vertex " + std::to_string(v) + " has an incomplete ring");
  if (topology.valence(q) != 6 || topology.valence(r) != 6) fail("the corners other than the first must be regular");
  const std::vector<int> ring_p = topology.ring(p, q);
  if (ring_p[0] != q || ring_p[1] != r) fail("(p, q, r) is not a counter-clockwise face");
  const std::vector<int> ring_q = topology.ring(q, p), ring_r = topology.ring(r, p);
  if (ring_q[4] != ring_r[2]) fail("the rings of q and r do not meet at lattice point (1, 1)");
  std::vector<int> ids = {p};
  ids.insert(ids.end(), ring_p.begin(), ring_p.end());
  ids.insert(ids.end(), {ring_q[2], ring_q[3], ring_q[4], ring_r[3], ring_r[4]});
  // Two lattice positions may name the same vertex (around valence 3, or in a
  // coarse mesh): the subdivision stencils near the face depend only on the
  // complete rings of p, q and r, so the unfolded neighbourhood is still exact.
  return ids;
}

#define CONTACTREF_INSTANTIATE(T) \
  template SubdivisionStep<T> loop_subdivide<T>(const MeshTopology&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
