#pragma once
// Progress of a long simulation on stderr: a line at every 10% of the
// duration and at least every 5 s of wall time, once the run has taken more
// than a second (short runs stay quiet). Shared by the models' `simulate`;
// cheap enough to be called on every step (it reads the clock every 1024th
// call).
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
    if (tenth <= reported_ && (++calls_ & 1023u) != 0) return;
    const double wall = seconds();
    if (wall < 1.0 || (tenth <= reported_ && wall < printed_ + 5.0)) return;
    reported_ = std::max(reported_, tenth);
    printed_ = wall;
    std::cerr << fmt::format("simulate: {:5.1f}%  t = {:.6g} s of {:.6g} s  ({:.1f} s wall)\n",
                             std::min(100 * time / duration_, 100.0), time, duration_, wall);
  }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  double duration_;
  std::chrono::steady_clock::time_point start_;
  int reported_ = 0;       // the last tenth of the duration printed
  double printed_ = 0;     // s of wall time at the last line
  unsigned calls_ = 0;
};

}  // namespace contactref::cli
