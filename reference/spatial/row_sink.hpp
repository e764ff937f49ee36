#pragma once
// Where a simulator puts its rows while it runs (shared/DESIGN.md: every
// simulator streams its rows to a sink, so that memory does not grow with the
// run's length): the smooth model's samples and events, the quasi-rigid
// model's samples and steps, the 6D and point models' body rows and steps.
// The CLI's file writers implement it; a RowCollector keeps the rows in
// memory for tests and suites, whose runs are short. A sink may throw (a
// ComputationError for a row it cannot write: the simulator then ends the
// run failed with that message).
#include <vector>

namespace contactref::spatial {

template <class Row>
class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void write(const Row& row) = 0;
};

// The rows in a vector.
template <class Row>
class RowCollector final : public RowSink<Row> {
 public:
  explicit RowCollector(std::vector<Row>& rows) : rows_(&rows) {}
  void write(const Row& row) override { rows_->push_back(row); }

 private:
  std::vector<Row>* rows_;
};

}  // namespace contactref::spatial
