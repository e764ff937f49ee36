#pragma once
// `contactref geometry contacts A B [--pose-b tx,ty,tz,rx,ry,rz]
//     [--velocity-b wx,wy,wz,vx,vy,vz] [--touch-tolerance EPS] [--cull-margin M]
//     [--previous PREVIOUS.json] [--balance] [--all] [--json]`:
// Bouma & Vanecek's contact analysis (robust_geometry/contact_analysis.hpp) of
// two polyhedra (OFF or OBJ) with B posed in A's frame (translation in m, then
// a rotation vector in rad): the needed contact regions (Eqs. 3-4) with their
// dimension, entities (of A and of B), boundary points (m, A's frame) and
// contact normals (unit, from A to B; Conditions 6-8). --velocity-b is B's
// twist relative to A in A's frame (rad/s about A's origin; m/s of B's point
// at A's origin) and turns on back-face culling (Eqs. 9-13); --previous reads
// an earlier --json output as the previous step's temporary contacts
// (temporal coherence, Eqs. 6-7), every field checked against A and B (exit 2
// naming the file and the JSON path); --touch-tolerance must be below half
// the shortest edge of A and B (robust_geometry::check_touch_tolerance);
// --all prints the whole intersection set I instead of the needed regions
// (without normals).
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

namespace contactref::cli {

struct ContactsCommandOptions {
  std::string a, b, pose_b, velocity_b, previous;
  double touch_tolerance = 0, cull_margin = 0;
  bool balance = false, all = false, json = false;
};

// Adds the subcommand to `geometry`; run_contacts runs it when it was parsed.
CLI::App* add_contacts_subcommand(CLI::App& geometry, ContactsCommandOptions& options);
int run_contacts(const ContactsCommandOptions& options);

}  // namespace contactref::cli
