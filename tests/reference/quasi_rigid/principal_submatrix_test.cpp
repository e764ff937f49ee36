// PrincipalSubmatrix (reference/quasi_rigid/principal_submatrix.hpp): after
// each change of F, small (slots moved and filled from M) or large (gathered
// anew), its entries are M's on the slots' indices, exactly, the slots are F,
// and it reads what its contract says: nothing when F is unchanged, m^2 when
// gathered anew, 2 m per moved or new slot otherwise. Its storage, kept
// for the next one, is taken by one of about the same order, whose entries
// are then its own M's; nothing over the limit is kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "reference/quasi_rigid/principal_submatrix.hpp"
#include "tests/kit/random.hpp"

namespace contactref::quasi_rigid {
namespace {

// Every entry against M (exact: a copy), and the slots against F.
void expect_holds(const PrincipalSubmatrix<double>& M_FF, const Eigen::MatrixXd& M, std::vector<int> F) {
  std::vector<int> slots = M_FF.indices();
  const auto block = M_FF.matrix();
  ASSERT_EQ(block.rows(), static_cast<Eigen::Index>(F.size()));
  ASSERT_EQ(block.cols(), static_cast<Eigen::Index>(F.size()));
  for (std::size_t b = 0; b < slots.size(); ++b) {
    for (std::size_t a = 0; a < slots.size(); ++a) {
      ASSERT_EQ(block(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)), M(slots[a], slots[b]))
          << "slot (" << a << ", " << b << ")";
    }
  }
  std::sort(slots.begin(), slots.end());
  EXPECT_EQ(slots, F);
}

TEST(PrincipalSubmatrix, HoldsMsEntriesOnEveryFreeSetOfASequence) {
  test::Rng rng(test::kSeed + 950);
  const int n = 200;
  Eigen::MatrixXd M(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) M(i, j) = fixtures::uniform(rng, -1, 1);  // not symmetric: rows and columns differ
  PrincipalSubmatrix<double> M_FF(M);
  std::vector<char> in_F(n, 0);
  const auto set = [&] {
    std::vector<int> F;
    for (int i = 0; i < n; ++i)
      if (in_F[static_cast<std::size_t>(i)]) F.push_back(i);
    return F;
  };
  // The first F: gathered anew.
  for (int i = 0; i < n; i += 2) in_F[static_cast<std::size_t>(i)] = 1;
  EXPECT_EQ(M_FF.assign(set()), 100.0 * 100.0);
  expect_holds(M_FF, M, set());
  EXPECT_EQ(M_FF.assign(set()), 0.0) << "F unchanged: nothing read";
  // Small changes (at most a sixteenth of F): some leave, some join, the
  // last slot among those leaving.
  int moved = 0;
  for (int round = 0; round < 40; ++round) {
    const std::vector<int> before = M_FF.indices();
    const int leaving = before.back();
    in_F[static_cast<std::size_t>(leaving)] = 0;
    for (int k = 0; k < 3; ++k) {
      const int i = static_cast<int>(fixtures::uniform(rng, 0, n - 1e-9));
      in_F[static_cast<std::size_t>(i)] = !in_F[static_cast<std::size_t>(i)];
    }
    const std::vector<int> F = set();
    const double read = M_FF.assign(F);
    expect_holds(M_FF, M, F);
    if (read < double(F.size()) * double(F.size())) ++moved;
    EXPECT_LE(read, 2.0 * 5 * double(n)) << "round " << round;
  }
  EXPECT_GT(moved, 30) << "the small changes should move slots, not gather anew";
  // A large change, an empty F, and every index: gathered anew.
  for (int i = 0; i < n; ++i) in_F[static_cast<std::size_t>(i)] = i % 3 == 0;
  EXPECT_EQ(M_FF.assign(set()), double(set().size()) * double(set().size()));
  expect_holds(M_FF, M, set());
  EXPECT_EQ(M_FF.assign({}), 0.0);
  expect_holds(M_FF, M, {});
  std::fill(in_F.begin(), in_F.end(), 1);
  EXPECT_EQ(M_FF.assign(set()), double(n) * n) << "F outgrows the storage";
  expect_holds(M_FF, M, set());
}

Eigen::MatrixXd random_matrix(test::Rng& rng, int n) {
  Eigen::MatrixXd M(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) M(i, j) = fixtures::uniform(rng, -1, 1);
  return M;
}

std::vector<int> first(int m) {
  std::vector<int> F(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) F[static_cast<std::size_t>(i)] = i;
  return F;
}

TEST(PrincipalSubmatrix, TheNextOfAboutTheSameOrderTakesTheLastOnesStorageAndHoldsItsOwnMsEntries) {
  using PS = PrincipalSubmatrix<double>;
  test::Rng rng(test::kSeed + 951);
  PS::keep_storage_up_to(0);  // nothing kept from other tests
  PS::keep_storage_up_to(PS::kDefaultKeptBytes);
  EXPECT_EQ(PS::kept_bytes(), 0u);
  const Eigen::MatrixXd M_1 = random_matrix(rng, 300), M_2 = random_matrix(rng, 300), M_3 = random_matrix(rng, 20);
  const double* kept = nullptr;
  {
    PS M_FF(M_1);
    M_FF.assign(first(300));  // 300^2 entries
    kept = M_FF.matrix().data();
  }
  EXPECT_EQ(PS::kept_bytes(), 90'000 * sizeof(double));
  {
    PS M_FF(M_2);
    M_FF.assign(first(200));  // capacity 250: 62,500 entries needed, 90,000 kept
    EXPECT_EQ(M_FF.matrix().data(), kept) << "the kept storage, not a new block";
    EXPECT_EQ(PS::kept_bytes(), 0u) << "in use";
    expect_holds(M_FF, M_2, first(200));  // M_2's, not M_1's left in the storage
    M_FF.assign(first(260));              // outgrows capacity 250: capacity 300, in the same block
    EXPECT_EQ(M_FF.matrix().data(), kept);
    EXPECT_EQ(M_FF.matrix().outerStride(), 300);
    expect_holds(M_FF, M_2, first(260));
    // While the kept storage is in use, another gets its own (smaller: the
    // larger of the two is kept when both are given back).
    PS other(M_1);
    other.assign(first(200));
    EXPECT_NE(other.matrix().data(), kept);
    expect_holds(other, M_1, first(200));
    expect_holds(M_FF, M_2, first(260));
  }
  EXPECT_EQ(PS::kept_bytes(), 90'000 * sizeof(double));
  {
    PS M_FF(M_3);
    M_FF.assign(first(20));  // 400 entries: not worth 90,000
    EXPECT_NE(M_FF.matrix().data(), kept);
    expect_holds(M_FF, M_3, first(20));
  }
  {
    PS M_FF(M_2);
    M_FF.assign(first(100));  // capacity 125: 15,625 entries, under a quarter of 90,000
    EXPECT_NE(M_FF.matrix().data(), kept);
    expect_holds(M_FF, M_2, first(100));
  }
  EXPECT_EQ(PS::kept_bytes(), 90'000 * sizeof(double)) << "the larger block kept";
  // A limit below the kept block frees it; a block over the limit is not kept.
  PS::keep_storage_up_to(500'000);  // 62,500 entries
  EXPECT_EQ(PS::kept_bytes(), 0u);
  {
    PS M_FF(M_2);
    M_FF.assign(first(240));  // capacity 300: 90,000 entries
    expect_holds(M_FF, M_2, first(240));
  }
  EXPECT_EQ(PS::kept_bytes(), 0u) << "over the limit: given back";
  {
    PS M_FF(M_2);
    M_FF.assign(first(180));  // capacity 225: 50,625 entries, under the limit
  }
  EXPECT_EQ(PS::kept_bytes(), 50'625 * sizeof(double));
  PS::keep_storage_up_to(PS::kDefaultKeptBytes);
}

}  // namespace
}  // namespace contactref::quasi_rigid
