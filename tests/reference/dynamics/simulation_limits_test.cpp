// A run's bounds (issue 29 item 7): the simulator streams its rows to sinks
// (spatial/row_sink.hpp) and keeps none of them itself, so that its memory
// does not grow with the run's length (measured: the resident set across
// 1e5 rows, which held 40 MB of rows in memory on main); progress is
// reported on every pass of the step loop; a run longer than its limits
// (SimulationOptions::max_steps, max_rows) is refused up front, and one that
// takes more steps than max_steps at run time ends failed.
#include <gtest/gtest.h>

#include <boost/math/constants/constants.hpp>
#include <fstream>
#include <unistd.h>

#include "core/errors.hpp"
#include "reference/dynamics/contact_simulation.hpp"
#include "reference/surfaces/analytic_patches.hpp"
#include "tests/kit/errors.hpp"
#include "tests/kit/sanitized.hpp"
#include "tests/reference/dynamics/sphere_on_plane.hpp"

namespace contactref::dynamics {
namespace {

// The resident set of this process (bytes), from /proc/self/statm.
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return double(resident) * double(sysconf(_SC_PAGESIZE));
}

// Counts the rows and notes the resident set at two of them.
class CountingSink final : public spatial::RowSink<SimulationSample<double>> {
 public:
  void write(const SimulationSample<double>& row) override {
    ++rows;
    last_time = row.state.time;
    if (rows == 1000) resident_early = resident_bytes();
    resident_late = resident_bytes();
  }
  long rows = 0;
  double last_time = -1, resident_early = 0, resident_late = 0;
};

ContactSystem<double> frictionless(const test::SphereOnPlaneScene<double>& set) { return set.system(FrictionModel<double>()); }

TEST(SimulationLimits, RowsGoToTheSinkAndMemoryDoesNotGrowWithTheRun) {
  const test::SphereOnPlaneScene<double> set;
  ContactState<double> start = set.sliding_start(0.3);
  start.qdot(1) = -0.3 / set.R;  // rolling without slip along x: uniform, cheap
  SimulationOptions<double> options;
  options.h_max = options.h_min = 0.016;
  const long rows = test::kSanitized ? 20000 : 100000;
  options.duration = 0.016 * double(rows);
  options.output_interval = 0;  // a row per step
  CountingSink sink;
  long progress_calls = 0;
  const SimulationResult<double> result =
      simulate<double>(frictionless(set), start, options, [&](const double&) { ++progress_calls; }, {&sink, nullptr});
  ASSERT_EQ(result.status, SimulationStatus::kCompleted) << result.message;
  EXPECT_TRUE(result.samples.empty());
  EXPECT_EQ(sink.rows, result.rows);
  EXPECT_GE(sink.rows, rows);
  EXPECT_DOUBLE_EQ(sink.last_time, options.duration);
  EXPECT_GE(progress_calls, result.statistics.accepted_steps);
  // A SimulationSample is about 400 bytes: kept, the rows after the 1000th
  // would take 1e5 x 400 B = 40 MB. Streamed, the resident set moves by the
  // allocator's noise, far below 4 MB. (Not under AddressSanitizer, whose
  // quarantine keeps freed blocks resident by design.)
  if (!test::kSanitized) {
    EXPECT_LT(sink.resident_late - sink.resident_early, 4e6) << "bytes";
  }
}

TEST(SimulationLimits, RunsBeyondTheLimitsAreRefusedUpFrontOrEndFailed) {
  const test::SphereOnPlaneScene<double> set;
  const ContactSystem<double> system = frictionless(set);
  const ContactState<double> start = set.sliding_start(0);
  SimulationOptions<double> options;
  options.duration = 1;
  options.h_max = 0.01;
  options.max_steps = 50;  // 1 s in steps of at most 0.01 s needs 100
  EXPECT_TRUE(test::contains(test::message_of<InputError>([&] { simulate(system, start, options); }),
                             "takes at least 100 steps, above max_steps = 50"));
  options.max_steps = 1000;
  options.output_interval = 1e-4;  // 1e4 rows
  options.max_rows = 5000;
  EXPECT_TRUE(test::contains(test::message_of<InputError>([&] { simulate(system, start, options); }),
                             "writes up to 10000 rows (output interval 0.0001 s), above max_rows = 5000"));
  // At run time: spinning at 400 rad/s, a step may turn the sphere by a
  // radian at most (step_acceptance.hpp resolved_step), so 1 s takes 400
  // steps, more than 150.
  options.max_rows = 1000000;
  options.max_steps = 150;
  options.h_max = 0.05;
  options.h_min = 1e-4;
  ContactState<double> spinning = start;
  spinning.qdot(4) = 400;
  const SimulationResult<double> result = simulate(system, spinning, options);
  EXPECT_EQ(result.status, SimulationStatus::kFailed);
  EXPECT_TRUE(test::contains(result.message, "the run took max_steps = 150 steps")) << result.message;
  EXPECT_EQ(result.statistics.accepted_steps + result.statistics.rejected_steps, 150);
}

}  // namespace
}  // namespace contactref::dynamics
