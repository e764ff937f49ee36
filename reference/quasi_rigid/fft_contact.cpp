#include "reference/quasi_rigid/fft_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/errors.hpp"

namespace contactref::quasi_rigid {

namespace {

void check(const FftHalfSpace& K, const Eigen::ArrayXXd& gap, const Eigen::ArrayXXd& initial_pressure,
           const GridContactOptions& options) {
  std::ostringstream bad;
  const auto size_of = [](const Eigen::ArrayXXd& a) {
    return std::to_string(a.rows()) + " x " + std::to_string(a.cols());
  };
  const std::string grid = std::to_string(K.nx()) + " x " + std::to_string(K.ny());
  if (gap.rows() != K.nx() || gap.cols() != K.ny()) {
    bad << "grid contact: a gap of " << size_of(gap) << " cells on a grid of " << grid;
  } else if (initial_pressure.size() > 0 && (initial_pressure.rows() != K.nx() || initial_pressure.cols() != K.ny())) {
    bad << "grid contact: an initial pressure of " << size_of(initial_pressure) << " cells on a grid of " << grid;
  } else if (!(std::isfinite(options.tolerance) && options.tolerance > 0)) {
    bad << "grid contact: the tolerance must be finite and > 0, got " << options.tolerance;
  } else if (options.max_iterations < 1) {
    bad << "grid contact: max_iterations must be >= 1, got " << options.max_iterations;
  }
  for (Eigen::Index k = 0; k < gap.size() && bad.str().empty(); ++k) {
    if (std::isnan(gap(k)) || gap(k) == -std::numeric_limits<double>::infinity()) {
      bad << "grid contact: the gap of cell " << k % gap.rows() << ", " << k / gap.rows() << " is " << gap(k)
          << " (NaN or -infinity)";
    }
  }
  for (Eigen::Index k = 0; k < initial_pressure.size() && bad.str().empty(); ++k) {
    if (!(std::isfinite(initial_pressure(k)) && initial_pressure(k) >= 0)) {
      bad << "grid contact: the initial pressure of cell " << k % initial_pressure.rows() << ", "
          << k / initial_pressure.rows() << " is " << initial_pressure(k) << " (need finite and >= 0)";
    }
  }
  if (!bad.str().empty()) throw InputError(bad.str());
}

}  // namespace

GridContact solve_grid_contact(const FftHalfSpace& K, const Eigen::ArrayXXd& gap,
                               const Eigen::ArrayXXd& initial_pressure, const GridContactOptions& options) {
  check(K, gap, initial_pressure, options);
  const Eigen::Index n = gap.size();
  const Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> inside = gap.isFinite();
  GridContact result;
  result.pressure = Eigen::ArrayXXd::Zero(K.nx(), K.ny());
  const double depth = -gap.minCoeff();  // the deepest overlap (m)
  if (!(depth > 0)) {
    result.displacement = Eigen::ArrayXXd::Zero(K.nx(), K.ny());
    return result;  // nothing overlaps: p = 0
  }
  Eigen::ArrayXXd& p = result.pressure;
  if (initial_pressure.size() > 0) p = inside.select(initial_pressure, 0.0);
  if (!(p > 0).any()) p = (gap < 0).select(-gap / K.influence(0, 0), 0.0);
  const double bound = options.tolerance * depth;

  Eigen::ArrayXXd u = K.apply(p), t = Eigen::ArrayXXd::Zero(K.nx(), K.ny()), s(K.nx(), K.ny());
  result.convolutions = 1;
  bool restart = true;  // delta = 0
  double G_old = 1;
  for (int iteration = 1;; ++iteration) {
    if (iteration > options.max_iterations) {
      std::ostringstream os;
      os << "grid contact: no convergence in " << options.max_iterations << " conjugate-gradient iterations ("
         << K.nx() << " x " << K.ny() << " cells; separation on the loaded cells " << result.residual << " m against "
         << bound << " m)";
      throw ComputationError(os.str());
    }
    s = inside.select(u + gap, 0.0);
    double G = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (p(k) > 0) G += s(k) * s(k);
    }
    for (Eigen::Index k = 0; k < n; ++k) t(k) = p(k) > 0 ? s(k) + (restart ? 0.0 : G / G_old) * t(k) : 0.0;
    G_old = G;
    const Eigen::ArrayXXd r = K.apply(t);
    ++result.convolutions;
    double st = 0, rt = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (p(k) > 0) st += s(k) * t(k), rt += r(k) * t(k);
    }
    // rt = t^T K t > 0 unless t = 0 (s = 0 on I: the loaded cells are
    // already in contact).
    const double tau = rt > 0 ? st / rt : 0.0;
    bool changed = false;  // a clipping or an overlap: K p to form again
    for (Eigen::Index k = 0; k < n; ++k) {
      if (p(k) > 0) {
        p(k) -= tau * t(k);
        if (p(k) < 0) p(k) = 0, changed = true;
      }
    }
    bool overlap = false;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (inside(k) && p(k) == 0 && s(k) < 0) {
        p(k) = -tau * s(k);
        overlap = true;
      }
    }
    // An overlap found with tau = 0 (nothing loaded moved) takes up its own
    // overlap alone, as the first iterate does.
    if (overlap && tau == 0) {
      for (Eigen::Index k = 0; k < n; ++k) {
        if (inside(k) && p(k) == 0 && s(k) < 0) p(k) = -s(k) / K.influence(0, 0);
      }
    }
    restart = overlap;
    result.iterations = iteration;
    if (changed || overlap) {
      u = K.apply(p);
      ++result.convolutions;
    } else {
      u -= tau * r;
      // The stopping test on K p formed again (the updates' round-off does
      // not accumulate into the answer).
      double largest = 0;
      for (Eigen::Index k = 0; k < n; ++k) {
        if (p(k) > 0) largest = std::max(largest, std::abs(u(k) + gap(k)));
      }
      result.residual = largest;
      if (largest <= bound) {
        u = K.apply(p);
        ++result.convolutions;
        largest = 0;
        bool feasible = true;
        for (Eigen::Index k = 0; k < n; ++k) {
          if (!inside(k)) continue;
          if (p(k) > 0) largest = std::max(largest, std::abs(u(k) + gap(k)));
          if (p(k) == 0 && u(k) + gap(k) < -bound) feasible = false;
        }
        result.residual = largest;
        if (largest <= bound && feasible) break;
      }
    }
  }
  result.displacement = std::move(u);
  return result;
}

}  // namespace contactref::quasi_rigid
