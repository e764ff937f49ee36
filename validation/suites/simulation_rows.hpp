#pragma once
// Rows that every suite built on the smooth-contact simulator reports.
#include <string>

#include "reference/dynamics/contact_simulation.hpp"
#include "validation/suite_result.hpp"

namespace contactref::validation {

// The check that a run reached its end (1) or why it did not (0).
inline Metric completed_check(const std::string& at, const dynamics::SimulationResult<double>& result) {
  const bool completed = result.status == dynamics::SimulationStatus::kCompleted;
  return check("completed" + at, completed ? 1.0 : 0.0, std::nullopt,
               completed ? "== 1: the run reached the end" : "== 1: the run reached the end: " + result.message,
               completed);
}

}  // namespace contactref::validation
