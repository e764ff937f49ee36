#include "validation/registry.hpp"

#include "validation/audit/dynamics_audit.hpp"
#include "validation/audit/geometry_audit.hpp"
#include "validation/audit/quasi_rigid_audit.hpp"
#include "validation/audit/spatial_audit.hpp"
#include "validation/audit/surfaces_audit.hpp"
#include "validation/figures/table_i.hpp"
#include "validation/suites/blob_in_bowl.hpp"
#include "validation/suites/bowl_on_table.hpp"
#include "validation/suites/brep_contact.hpp"
#include "validation/suites/frictionless_bowl_drift.hpp"
#include "validation/suites/foot_tractions.hpp"
#include "validation/suites/hertz_convergence.hpp"
#include "validation/suites/loop_evaluation.hpp"
#include "validation/suites/rattleback_reversal.hpp"
#include "validation/suites/octagon_convergence.hpp"
#include "validation/suites/six_d_departures.hpp"
#include "validation/suites/spinning_ball_incline.hpp"
#include "validation/suites/torque_free_body.hpp"

namespace contactref::validation {

// Validation suites, in the order `validate all` runs them.
const std::vector<SuiteSpec>& suites() {
  static const std::vector<SuiteSpec> list = {
      {"torque-free-body", "RK4 free rigid body against Euler's equations in Jacobi elliptic functions",
       torque_free_body_suite},
      {"loop-evaluation",
       "exact Loop evaluation: 50-digit derivative checks, edge continuity, agreement with OpenSubdiv",
       loop_evaluation_suite},
      {"frictionless-bowl-drift",
       "the App. B.2 bowl on a frictionless Bezier plane (thesis 6.2): drift, energy, constraint, baseline",
       frictionless_bowl_drift_suite},
      {"rattleback-reversal",
       "Kry's rattleback (thesis 6.4, App. B.1; Kry & Pai Figs. 10-11): spin reversals, rocking modes, step sweep, "
       "energy split",
       rattleback_reversal_suite},
      {"blob-in-bowl",
       "a lumpy Loop marble released in a shallow Loop dish (thesis 6.3, Fig. 6.3): slides, then rolls; "
       "energy falls while sliding, is conserved while rolling",
       blob_in_bowl_suite},
      {"bowl-on-table",
       "Kry & Pai Section 4.2: the App. B.2 bowl thrown onto a Loop table, RK4 at maximum steps 1 to 128 ms (Figs. "
       "6-9, Table II): every impact against Chatterjee & Ruina's law, no penetration in flight, the energy balance, "
       "rest upright on the table",
       bowl_on_table_suite},
      {"brep-contact",
       "Bouma & Vanecek: Brep-index sizes and depths, culling speed-up, contact regions and normals of Figs. 3-8",
       brep_contact_suite},
      {"hertz-convergence",
       "Pauly et al.'s quasi-rigid model against Hertz at four samplings: a sphere on rigid and elastic half-spaces "
       "(grid, load control), and a point-sampled sphere on a rigid sampled plane (one LCP)",
       hertz_convergence_suite},
      {"foot-tractions",
       "Pauly et al. Fig. 9: a synthetic foot pressed onto a rigid ground with the volume-preserving kernel under "
       "body weight: multi-level solve, displaced samples, time, equilibrium, bulge, the pressure mat",
       foot_tractions_suite},
      {"spinning-ball-incline",
       "Pauly et al. Fig. 8: a spinning quasi-rigid ball dropped on a quasi-rigid incline with Coulomb friction: "
       "momentum in flight, friction never works, the angular momentum about the contact line, 5/7 g sin(theta) "
       "once rolling",
       spinning_ball_incline_suite},
      {"octagon-convergence",
       "Bouchard et al. Figs. 15-17, Tables 1-2: block PGS with one 6D contact per pair against point contacts: "
       "sweeps to 1e-15 on the sliding octagon, the Coulomb slide to rest, Table 2's statistics on a stack and a "
       "pyramid, Table 1's times per phase, MuJoCo beside them",
       octagon_convergence_suite},
      {"six-d-departures",
       "Bouchard et al.'s 6D model where the project departs from the paper, both ways: the tipping overhang and the "
       "spin braking of Appendix A's ellipse and of the support region against uniform-pressure closed forms; joint "
       "elimination against plain block Gauss-Seidel (both at the paper's fixed point); the spin re-solve; normals "
       "by differences",
       six_d_departures_suite},
  };
  return list;
}

const std::vector<FigureSpec>& figures() {
  static const std::vector<FigureSpec> list = {
      {"torque-free-convergence", "torque-free-body", "torque_free_convergence.py",
       "free-body RK4: angular-velocity error against step size (slope-4 guide) and the flip",
       write_torque_free_figure_data},
      {"loop-bowl", "loop-evaluation", "loop_bowl.py",
       "the App. B.2 bowl's Loop limit surface, patch boundaries and extraordinary vertices", write_loop_bowl_figure_data},
      {"table-i", "loop-evaluation", "table_i.py",
       "Kry & Pai Table I regenerated from the surface benchmarks, beside the paper's times", write_table_i_figure_data},
      {"fig-6-2", "frictionless-bowl-drift", "fig_6_2.py",
       "thesis Fig. 6.2 regenerated: the bowl's centre of mass against time, patch transitions marked",
       write_fig_6_2_data},
      {"bowl-drift", "frictionless-bowl-drift", "bowl_drift.py",
       "energy and drift against time and step size; the maximal-coordinate baseline's constraint drift beside ours",
       write_bowl_drift_data},
      {"rattleback-spin", "rattleback-reversal", "rattleback_spin.py",
       "the rattleback's spin rate against time for every case and step, its energy split into the law's work, "
       "the impulses' and the integrator's, and every no-slip run's difference to the rolling-body oracle with its "
       "tolerance",
       write_rattleback_spin_data},
      {"rattleback-top-view", "rattleback-reversal", "rattleback_top_view.py",
       "top view of the tap and spin starts with the poses of every second ghosted (thesis Figs. 6.6-6.7, Kry & Pai "
       "Fig. 11)",
       write_rattleback_top_view_data},
      {"blob-in-bowl", "blob-in-bowl", "blob_in_bowl.py",
       "thesis Fig. 6.3 redrawn: the marble's path in the dish coloured by friction mode, and its energy",
       write_blob_in_bowl_data},
      {"bowl-on-table-fig-6", "bowl-on-table", "bowl_on_table_fig_6.py",
       "Kry & Pai Fig. 6 redrawn: side views of the bowl on the table every 0.5 s at maximum steps of 1, 16 and 64 ms",
       write_bowl_on_table_fig_6_data},
      {"bowl-on-table-fig-7", "bowl-on-table", "bowl_on_table_fig_7.py",
       "Kry & Pai Fig. 7 redrawn: the planar paths of the bowl's centre of mass at 1, 16 and 64 ms with collisions, "
       "patch transitions, friction mode switches and contact re-established marked",
       write_bowl_on_table_fig_7_data},
      {"bowl-on-table-fig-8", "bowl-on-table", "bowl_on_table_fig_8.py",
       "Kry & Pai Fig. 8 redrawn: histograms of the steps accepted in contact at 16 and 64 ms",
       write_bowl_on_table_fig_8_data},
      {"bowl-on-table-fig-9", "bowl-on-table", "bowl_on_table_fig_9.py",
       "Kry & Pai Fig. 9 redrawn: the centre of mass's x over the first second at 64 ms, each integrator state a dot, "
       "patch transitions dotted, contact re-established and lost in red",
       write_bowl_on_table_fig_9_data},
      {"brep-fig-3", "brep-contact", "brep_contact.py",
       "a block on a floor against a ramp: the intersection set, the needed 2D and 1D regions and their normals",
       write_brep_fig_3_data},
      {"brep-fig-5", "brep-contact", "brep_contact.py",
       "Fig. 5: a tetrahedron in a corner with a leaning wall: 2D, 1D and 0D regions and their normals",
       write_brep_fig_5_data},
      {"brep-fig-8", "brep-contact", "brep_contact.py",
       "Fig. 8: a block sliding across two fingers: the new edge region's normal without and with temporal coherence",
       write_brep_fig_8_data},
      {"hertz-convergence", "hertz-convergence", "hertz_convergence.py",
       "the quasi-rigid pressure profile against Hertz's ellipse, and the errors in contact radius, peak pressure and "
       "approach against the sampling",
       write_hertz_convergence_data},
      {"foot-tractions", "foot-tractions", "foot_tractions.py",
       "Fig. 9 regenerated: the hierarchy's samplings, the undeformed and deformed foot, the tractions on the foot and "
       "on the ground, and the 37 x 13 pressure mat",
       write_foot_tractions_data},
      {"spinning-ball-incline", "spinning-ball-incline", "spinning_ball_incline.py",
       "Fig. 8 redrawn: the spinning ball's path on the incline (side view) and its angular velocity against time",
       write_spinning_ball_incline_data},
      {"octagon-convergence", "octagon-convergence", "octagon_convergence.py",
       "Figs. 15-16 regenerated: the update norm of each sweep for the 6D and the point model, on the sliding "
       "octagon and on the resting stack, from zero impulses",
       write_octagon_convergence_data},
  };
  return list;
}

const std::vector<AuditEntrySpec>& audit_entries() {
  static const std::vector<AuditEntrySpec> list = [] {
    std::vector<AuditEntrySpec> all;
    for (auto& entry : audit::spatial_audit_entries()) all.push_back(std::move(entry));
    for (auto& entry : audit::surfaces_audit_entries()) all.push_back(std::move(entry));
    for (auto& entry : audit::dynamics_audit_entries()) all.push_back(std::move(entry));
    for (auto& entry : audit::quasi_rigid_audit_entries()) all.push_back(std::move(entry));
    for (auto& entry : audit::geometry_audit_entries()) all.push_back(std::move(entry));
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
