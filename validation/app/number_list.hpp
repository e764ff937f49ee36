#pragma once
// Comma-separated numbers given on the command line ("--q 0.1,0.2,...").
#include <string>
#include <vector>

#include "core/rigid_pose.hpp"

namespace contactref::cli {

// Exactly `count` finite numbers, or InputError naming the option and the
// expected fields (`names`, e.g. "s,t,u,v,psi").
std::vector<double> parse_number_list(const std::string& text, const std::string& option, const std::string& names,
                                      std::size_t count);

// A rigid pose "tx,ty,tz,rx,ry,rz" (translation, then a rotation vector in
// rad; any finite rotation vector gives a rotation); InputError as
// parse_number_list.
RigidPose<double> parse_pose(const std::string& text, const std::string& option);

}  // namespace contactref::cli
