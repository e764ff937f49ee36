#pragma once
// Progress of a long simulation on stderr: a line at every 10% of the
// duration, once the run has taken more than a second of wall time (short
// runs stay quiet). Shared by the models' `simulate`.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

namespace contactref::cli {

class Progress {
 public:
  explicit Progress(double duration) : duration_(duration), start_(std::chrono::steady_clock::now()) {}
  void operator()(double time) {
    if (!(duration_ > 0)) return;
    const int tenth = int(std::floor(10 * time / duration_ + 1e-9));
    if (tenth <= reported_) return;
    const double wall = seconds();
    if (wall < 1.0) return;
    reported_ = tenth;
    std::cerr << fmt::format("simulate: {:3d}%  t = {:.4g} s of {:.4g} s  ({:.1f} s wall)\n", std::min(tenth, 10) * 10,
                             time, duration_, wall);
  }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  double duration_;
  std::chrono::steady_clock::time_point start_;
  int reported_ = 0;
};

}  // namespace contactref::cli
