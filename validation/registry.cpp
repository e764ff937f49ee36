#include "validation/registry.hpp"

#include "validation/audit/spatial_audit.hpp"
#include "validation/suites/torque_free_body.hpp"

namespace contactref::validation {

// Validation suites, in the order `validate all` runs them.
const std::vector<SuiteSpec>& suites() {
  static const std::vector<SuiteSpec> list = {
      {"torque-free-body", "RK4 free rigid body against Euler's equations in Jacobi elliptic functions",
       torque_free_body_suite},
  };
  return list;
}

const std::vector<FigureSpec>& figures() {
  static const std::vector<FigureSpec> list = {
      {"torque-free-convergence", "torque-free-body", "torque_free_convergence.py",
       "free-body RK4: angular-velocity error against step size (slope-4 guide) and the flip",
       write_torque_free_figure_data},
  };
  return list;
}

const std::vector<AuditEntrySpec>& audit_entries() {
  static const std::vector<AuditEntrySpec> list = [] {
    std::vector<AuditEntrySpec> all;
    for (auto& entry : audit::spatial_audit_entries()) all.push_back(std::move(entry));
    return all;
  }();
  return list;
}

std::vector<std::string> figure_files_of(const std::string& suite) {
  std::vector<std::string> files;
  for (const FigureSpec& figure : figures()) {
    if (figure.suite == suite) files.push_back("figures/" + figure.name + "/" + figure.name + ".png");
  }
  return files;
}

}  // namespace contactref::validation
