// Quick variants of the validation suites (the full runs belong to
// `contactref validate`), and the suite-result machinery.
#include <gtest/gtest.h>

#include <cmath>

#include "validation/registry.hpp"
#include "validation/suites/brep_contact.hpp"
#include "validation/suites/frictionless_bowl_drift.hpp"
#include "validation/suites/loop_evaluation.hpp"
#include "validation/suites/torque_free_body.hpp"

namespace contactref::validation {
namespace {

const Metric* find(const SuiteResult& result, const std::string& name) {
  for (const Metric& m : result.metrics)
    if (m.name == name) return &m;
  return nullptr;
}

TEST(TorqueFreeBodySuite, QuickVariantPassesWithFourthOrder) {
  const SuiteResult result = torque_free_body_suite({true});
  for (const Metric& m : result.metrics) EXPECT_TRUE(m.passed) << m.name << " = " << m.value << " (" << m.criterion << ")";
  const Metric* order = find(result, "convergence_order");
  ASSERT_NE(order, nullptr);
  EXPECT_GE(order->value, 3.7);
  EXPECT_LE(order->value, 4.3);
  EXPECT_TRUE(result.passed());
}

TEST(LoopEvaluationSuite, QuickVariantPasses) {
  const SuiteResult result = loop_evaluation_suite({true});
  for (const Metric& m : result.metrics) EXPECT_TRUE(m.passed) << m.name << " = " << m.value << " (" << m.criterion << ")";
  EXPECT_TRUE(result.passed());
}

// Quick variant: 2 s at 1 and 4 ms. Besides the suite's own criteria: the
// constraint of the reduced coordinates holds to round-off, the baseline's
// drifts by orders of magnitude more, and the contact crossed patches.
TEST(FrictionlessBowlDriftSuite, QuickVariantPassesAndTheBaselineDrifts) {
  const SuiteResult result = frictionless_bowl_drift_suite({true});
  for (const Metric& m : result.metrics) EXPECT_TRUE(m.passed) << m.name << " = " << m.value << " (" << m.criterion << ")";
  EXPECT_TRUE(result.passed());
  const Metric* ours = find(result, "max_gap_m");
  const Metric* baseline = find(result, "baseline_max_gap_m[h_max=1ms]");
  const Metric* transitions = find(result, "transitions[h_max=1ms]");
  ASSERT_TRUE(ours && baseline && transitions);
  EXPECT_GT(baseline->value, 1e6 * ours->value);
  EXPECT_GT(transitions->value, 2);
}

// Bouma & Vanecek: every structural number and figure check of the suite;
// the culling ratio (a count of plane tests, deterministic) is near the
// paper's factor of two.
TEST(BrepContactSuite, QuickVariantPasses) {
  const SuiteResult result = brep_contact_suite({true});
  for (const Metric& m : result.metrics) EXPECT_TRUE(m.passed) << m.name << " = " << m.value << " (" << m.criterion << ")";
  EXPECT_TRUE(result.passed());
  const Metric* ratio = find(result, "culling.plane_test_ratio");
  ASSERT_NE(ratio, nullptr);
  EXPECT_LT(ratio->value, 3.0);
}

TEST(ObservedOrder, RecoversTheExponentOfAPowerLaw) {
  const std::vector<double> h = {0.1, 0.05, 0.025, 0.0125};
  std::vector<double> error;
  for (double x : h) error.push_back(3.0 * std::pow(x, 4.0));
  EXPECT_NEAR(observed_order(h, error), 4.0, 1e-12);
}

TEST(SuiteResult, PassesOnlyWhenEveryMetricPasses) {
  SuiteResult result;
  result.name = "example";
  EXPECT_FALSE(result.passed());  // no metric: nothing was checked
  result.add({"a", 1.0, 2.0, "a <= 2", true});
  EXPECT_TRUE(result.passed());
  result.add({"b", 3.0, std::nullopt, "b <= 2", false});
  EXPECT_FALSE(result.passed());
  const auto json = to_json(result);
  EXPECT_EQ(json["metrics"]["a"]["reference"], 2.0);
  EXPECT_TRUE(json["metrics"]["b"]["reference"].is_null());
  EXPECT_EQ(json["passed"], false);
}

TEST(Registry, EveryFigureBelongsToARegisteredSuiteAndHasAScript) {
  for (const FigureSpec& figure : figures()) {
    bool found = false;
    for (const SuiteSpec& suite : suites()) found = found || suite.name == figure.suite;
    EXPECT_TRUE(found) << figure.name;
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(CONTACTREF_SOURCE_DIR) / "paper_figures" / figure.script))
        << figure.script;
  }
}

}  // namespace
}  // namespace contactref::validation
