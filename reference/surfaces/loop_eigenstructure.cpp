#include "reference/surfaces/loop_eigenstructure.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <map>
#include <mutex>


#include "core/errors.hpp"
#include "reference/surfaces/loop_regular_basis.hpp"
#include "reference/surfaces/loop_rules.hpp"
#include "reference/surfaces/loop_subdivision.hpp"

namespace contactref::surfaces {
namespace {

// The canonical local mesh of valence N: vertex 0 = p (the EV), 1..N = its
// ring (1 = q, 2 = r), N+1..N+5 = the lattice points (2,-1), (2,0), (1,1),
// (0,2), (-1,2) around q = (1,0) and r = (0,1). Faces: the fan around p, and
// the remaining faces around q and r (q and r regular).
std::vector<std::array<int, 3>> canonical_faces(int N) {
  std::vector<std::array<int, 3>> faces;
  for (int i = 0; i < N; ++i) faces.push_back({0, 1 + i, 1 + (i + 1) % N});
  const int q = 1, r = 2, last = N, second = 3;  // last = ring[N-1], second = ring[2] (ids 1 + index)
  const int e0 = N + 1, e1 = N + 2, e2 = N + 3, e3 = N + 4, e4 = N + 5;
  faces.push_back({q, last, e0});
  faces.push_back({q, e0, e1});
  faces.push_back({q, e1, e2});
  faces.push_back({q, e2, r});
  faces.push_back({r, e2, e3});
  faces.push_back({r, e3, e4});
  faces.push_back({r, e4, second});
  return faces;
}

template <class T>
DynamicMatrix<T> rows_of(const SubdivisionStep<T>& step, const std::vector<int>& new_ids, int K) {
  DynamicMatrix<T> M = DynamicMatrix<T>::Zero(Eigen::Index(new_ids.size()), K);
  for (std::size_t row = 0; row < new_ids.size(); ++row) {
    if (!step.valid(new_ids[row])) throw ComputationError("Loop eigenstructure: a child control vertex has an incomplete stencil");
    for (const auto& [index, w] : step.weights[std::size_t(new_ids[row])]) M(Eigen::Index(row), index) += w;
  }
  return M;
}

template <class T>
LoopEigenstructure<T> compute(int N) {
  using std::abs;
  const int K = N + 6;
  const MeshTopology topology(K, canonical_faces(N), true, "canonical valence-" + std::to_string(N) + " mesh");
  const SubdivisionStep<T> step = loop_subdivide<T>(topology);
  const MeshTopology fine(int(step.weights.size()), step.faces, true, "subdivided canonical mesh");
  const auto& [a, b, c, m_ab, m_bc, m_ca] = step.face_points[0];  // face (p, q, r) is face 0

  LoopEigenstructure<T> eig;
  eig.valence = N;
  eig.A = rows_of(step, loop_patch_neighbourhood(fine, a, m_ab, m_ca), K);
  eig.pick[0] = rows_of(step, loop_patch_neighbourhood(fine, m_ab, b, m_bc), K);
  eig.pick[1] = rows_of(step, loop_patch_neighbourhood(fine, m_ca, m_bc, c), K);
  eig.pick[2] = rows_of(step, loop_patch_neighbourhood(fine, m_bc, m_ca, m_ab), K);

  using std::pow;
  const Eigen::EigenSolver<DynamicMatrix<T>> solver(eig.A, false);
  if (solver.info() != Eigen::Success)
    throw ComputationError("Loop eigenstructure: eigenvalues failed for valence " + std::to_string(N));
  std::vector<T> values;
  for (Eigen::Index k = 0; k < K; ++k) values.push_back(solver.eigenvalues()(k).real());
  std::sort(values.begin(), values.end(), std::greater<T>());
  // A Jordan block of size m splits its eigenvalue by about eps^(1/m): cluster
  // with eps^(1/3) (distinct Loop eigenvalues for N <= 24 differ by > 1e-3).
  const T cluster_gap = T(10) * pow(epsilon<T>(), T(1) / 3);
  eig.eigenvalues.resize(K);
  eig.V.resize(K, K);
  eig.diagonalisable = true;
  int column = 0;
  for (std::size_t first = 0; first < values.size();) {
    std::size_t last = first + 1;
    while (last < values.size() && values[last - 1] - values[last] < cluster_gap) ++last;
    const int multiplicity = int(last - first);
    T mean = T(0);  // the mean of a split cluster is accurate to eps
    for (std::size_t k = first; k < last; ++k) mean += values[k] / T(multiplicity);
    Eigen::FullPivLU<DynamicMatrix<T>> lu(eig.A - mean * DynamicMatrix<T>::Identity(K, K));
    lu.setThreshold(T(1e4) * epsilon<T>());
    const DynamicMatrix<T> kernel = lu.kernel();
    if (int(kernel.cols()) != multiplicity || lu.rank() == K) eig.diagonalisable = false;
    for (int k = 0; k < multiplicity; ++k) {
      eig.eigenvalues(column) = mean;
      if (eig.diagonalisable) eig.V.col(column) = kernel.col(k);
      ++column;
    }
    first = last;
  }
  if (eig.diagonalisable) {
    eig.V_inverse = Eigen::FullPivLU<DynamicMatrix<T>>(eig.V).inverse();
    const T residual = (eig.A * eig.V - eig.V * eig.eigenvalues.asDiagonal()).cwiseAbs().maxCoeff();
    const T inverse_error = (eig.V * eig.V_inverse - DynamicMatrix<T>::Identity(K, K)).cwiseAbs().maxCoeff();
    if (!(residual < T(1e5) * epsilon<T>()) || !(inverse_error < T(1e6) * epsilon<T>()))
      throw ComputationError("Loop eigenstructure: inaccurate eigenvectors for valence " + std::to_string(N));
    for (std::size_t k = 0; k < 3; ++k) {
      eig.pick_V[k] = eig.pick[k] * eig.V;
      eig.child_polynomials[k] = eig.pick_V[k].transpose() * loop_regular_basis<T>();
    }
  } else {
    eig.V.resize(0, 0);
  }
  // The dominant left eigenvector: the null space of A^T - I (eigenvalue 1 is simple).
  Eigen::FullPivLU<DynamicMatrix<T>> left(eig.A.transpose() - DynamicMatrix<T>::Identity(K, K));
  left.setThreshold(T(1e4) * epsilon<T>());
  const DynamicMatrix<T> w = left.kernel();
  if (w.cols() != 1) throw ComputationError("Loop eigenstructure: eigenvalue 1 is not simple for valence " + std::to_string(N));
  eig.limit_mask = w.col(0) / w.col(0).sum();
  return eig;
}

}  // namespace

template <class T>
const LoopEigenstructure<T>& loop_eigenstructure(int valence) {
  if (valence < 3 || valence > kMaxLoopValence)
    throw InputError("Loop surfaces support valences 3 to " + std::to_string(kMaxLoopValence) + ", not " +
                     std::to_string(valence));
  static std::mutex mutex;
  static std::map<int, LoopEigenstructure<T>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(valence);
  if (it == cache.end()) it = cache.emplace(valence, compute<T>(valence)).first;
  return it->second;
}

#define CONTACTREF_INSTANTIATE(T) \
  template const LoopEigenstructure<T>& loop_eigenstructure<T>(int);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::surfaces
