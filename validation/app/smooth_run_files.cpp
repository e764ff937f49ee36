#include "validation/app/smooth_run_files.hpp"

#include <cmath>

namespace contactref::cli {

namespace dy = contactref::dynamics;

SmoothSampleFiles::SmoothSampleFiles(const std::filesystem::path& out, const scenes::Scene& scene)
    : scene_(scene),
      bodies_(out / "bodies.csv"),
      trajectory_(out / "trajectory.csv",
                  "time,s,t,u,v,psi,sdot,tdot,udot,vdot,psidot,com_x,com_y,com_z,com_vx,com_vy,com_vz,omega_x,omega_y,"
                  "omega_z,energy,power,work,impulse_work,normal_force,mode,slip_speed,gap,normal_misalignment,patch1,"
                  "patch2,step"),
      contacts_(out / "contacts.csv", "time,px,py,pz,nx,ny,nz,tx,ty,tz,normal_force"),
      E_w_2_(scene.system().E_w_2),
      down_(scene.gravity.norm() > 0 ? Vec3<double>(scene.gravity / scene.gravity.norm()) : Vec3<double>::Zero()) {}

void SmoothSampleFiles::write(const dy::SimulationSample<double>& row) {
  const dy::ContactState<double>& x = row.state;
  static const char* const q_names[5] = {"s", "t", "u", "v", "psi"};
  static const char* const rate_names[5] = {"sdot", "tdot", "udot", "vdot", "psidot"};
  trajectory_.begin(x.time);
  // In flight there are no contact coordinates: empty fields.
  for (int k = 0; k < 5; ++k) row.flight ? trajectory_.text("") : trajectory_.number(x.q(k), q_names[k]);
  for (int k = 0; k < 5; ++k) row.flight ? trajectory_.text("") : trajectory_.number(x.qdot(k), rate_names[k]);
  static const char* const vector_names[3][3] = {
      {"com_x", "com_y", "com_z"}, {"com_vx", "com_vy", "com_vz"}, {"omega_x", "omega_y", "omega_z"}};
  const Vec3<double>* vectors[3] = {&row.com_w, &row.com_velocity_w, &row.omega_w};
  for (int v = 0; v < 3; ++v)
    for (int k = 0; k < 3; ++k) trajectory_.number((*vectors[v])(k), vector_names[v][k]);
  trajectory_.number(row.energy, "energy");
  trajectory_.number(row.power, "power");
  trajectory_.number(row.work, "work");
  trajectory_.number(row.impulse_work, "impulse_work");
  trajectory_.number(row.normal_force, "normal_force");
  trajectory_.text(row.flight ? "flight" : dy::to_string(x.mode));
  trajectory_.number(row.slip_speed, "slip_speed");
  trajectory_.number(row.gap, "gap");
  trajectory_.number(row.normal_misalignment, "normal_misalignment");
  for (const int patch : {x.patch1, x.patch2}) row.flight ? trajectory_.text("") : trajectory_.integer(patch);
  trajectory_.number(row.step, "step");
  trajectory_.end();
  write_contact(row);
  const scenes::SceneBody& body = scene_.free_body();
  bodies_.write(body_row(x.time, body.name, {body.mass, body.I_com}, scene_.gravity,
                         {row.com_w, Eigen::Quaterniond(row.R_w_1), row.com_velocity_w, row.omega_w}));
  Drift& d = drift_;
  const double kept = row.energy - row.work - row.impulse_work;
  if (first_) {
    d.com0 = row.com_w;
    energy_min_ = energy_max_ = row.energy;
    kept_min_ = kept_max_ = kept;
    first_ = false;
  }
  const Vec3<double> moved = row.com_w - d.com0;
  const double horizontal = (moved - moved.dot(down_) * down_).norm();
  energy_min_ = std::min(energy_min_, row.energy), energy_max_ = std::max(energy_max_, row.energy);
  kept_min_ = std::min(kept_min_, kept), kept_max_ = std::max(kept_max_, kept);
  d.max_horizontal = std::max(d.max_horizontal, horizontal);
  d.energy_final = row.energy;
  d.work = row.work;
  d.impulse_work = row.impulse_work;
  d.com_final = row.com_w;
  d.final_horizontal = horizontal;
}

void SmoothSampleFiles::write_contact(const dy::SimulationSample<double>& row) {
  contacts_.begin(row.state.time);
  if (row.flight) {
    for (int k = 0; k < 9; ++k) contacts_.text("");
  } else {
    const dy::ContactState<double>& x = row.state;
    const surfaces::PatchJet<double> d = scene_.fixed_body().patch(x.patch2).evaluate(x.q(2), x.q(3));
    const Mat3<double> R_w_2 = E_w_2_.topLeftCorner<3, 3>();
    const Vec3<double> p_w = R_w_2 * d.c() + E_w_2_.topRightCorner<3, 1>();
    const Vec3<double> n_w = R_w_2 * d.c_s().cross(d.c_t()).normalized(), t_w = R_w_2 * d.c_s().normalized();
    static const char* const names[3][3] = {{"px", "py", "pz"}, {"nx", "ny", "nz"}, {"tx", "ty", "tz"}};
    const Vec3<double>* vectors[3] = {&p_w, &n_w, &t_w};
    for (int v = 0; v < 3; ++v)
      for (int k = 0; k < 3; ++k) contacts_.number((*vectors[v])(k), names[v][k]);
  }
  contacts_.number(row.normal_force, "normal_force");
  contacts_.end();
}

Drift SmoothSampleFiles::close(double energy0) {
  trajectory_.close();
  contacts_.close();
  bodies_.close();
  Drift d = drift_;
  d.energy0 = energy0;
  if (first_) {
    d.energy_final = energy0;  // no row
  } else {
    d.max_energy_change = std::max(std::abs(energy_max_ - energy0), std::abs(energy_min_ - energy0));
    d.max_balance = std::max(std::abs(kept_max_ - energy0), std::abs(kept_min_ - energy0));
  }
  if (d.energy0 != 0) {
    d.relative_max = d.max_energy_change / std::abs(d.energy0);
    d.relative_final = (d.energy_final - d.energy0) / std::abs(d.energy0);
    d.relative_balance = d.max_balance / std::abs(d.energy0);
  }
  return d;
}

SmoothEventFile::SmoothEventFile(const std::filesystem::path& out)
    : file_(out / "events.csv",
            "time,kind,body,from_patch,from_edge,to_patch,to_edge,from_mode,to_mode,impulse_x,impulse_y,impulse_z,"
            "normal_velocity_before,normal_velocity_after,tangential_speed_before,tangential_speed_after,energy_change,"
            "message") {}

void SmoothEventFile::write(const dy::SimulationEvent<double>& e) {
  const bool switch_event = e.kind == dy::EventKind::kModeSwitch;
  file_.begin(e.time);
  file_.text(dy::to_string(e.kind));
  for (const int index : {e.body, e.from_patch, e.from_edge, e.to_patch, e.to_edge}) file_.integer(index);
  file_.text(switch_event ? dy::to_string(e.from_mode) : "");
  file_.text(switch_event ? dy::to_string(e.to_mode) : "");
  // Collisions and contacts (contact_simulation.hpp SimulationEvent): their
  // numbers; empty for the other kinds.
  const bool impact = e.kind == dy::EventKind::kCollision || e.kind == dy::EventKind::kContact ||
                      e.kind == dy::EventKind::kForcedSeparation;
  static const char* const names[8] = {"impulse_x", "impulse_y", "impulse_z", "normal_velocity_before",
                                       "normal_velocity_after", "tangential_speed_before", "tangential_speed_after",
                                       "energy_change"};
  const double values[8] = {e.impulse_w.x(), e.impulse_w.y(), e.impulse_w.z(), e.normal_velocity_before,
                            e.normal_velocity_after, e.tangential_speed_before, e.tangential_speed_after,
                            e.energy_change};
  for (int k = 0; k < 8; ++k) impact ? file_.number(values[k], names[k]) : file_.text("");
  file_.text(e.message);
  file_.end();
}

}  // namespace contactref::cli
