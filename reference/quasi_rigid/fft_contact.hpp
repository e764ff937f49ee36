#pragma once
// The elastic contact of Pauly et al. Eq. 10, s = R p + g >= 0, p >= 0,
// s^T p = 0, on a regular grid in the contact plane with R the FFT
// half-space operator (fft_half_space.hpp): the nonnegative cell pressures
// p under which the separation s = K p + g vanishes where p > 0 and is
// nonnegative elsewhere, for a given undeformed separation g (the rigid
// approach is in g, as in point_contact.hpp's LCPs: displacement control).
// Equivalently, p minimises p^T K p / 2 + g^T p over p >= 0 (K symmetric
// positive definite).
//
// Solved by Polonsky & Keer's constrained conjugate gradient (Wear 231, 1999,
// their Section 3 algorithm) without its load constraint: the mean-gap shift
// of steps 1 and 4 and the load scaling of step 9 enforce a given load, and
// here the approach is given instead. Each iteration:
//   s = K p + g; I = {p > 0}; G = sum over I of s^2;
//   t = s + delta (G / G_old) t on I, 0 elsewhere;  r = K t;
//   tau = (s . t) / (r . t) over I;  p <- p - tau t on I;  p <- max(p, 0);
//   on the cells with p = 0 and s < 0 (overlap): p <- -tau s, and delta = 0
//   (the conjugate directions restart), else delta = 1.
// From p = 0 the first iterate is -g / K(0, 0) where g < 0 (each cell's
// overlap taken up by its own compliance alone).
// It stops when an iteration found no overlap, clipped no cell, and the
// separation on I is within `tolerance` of the deepest overlap, max(-g).
// K p follows the iterations as K p - tau r where neither the clipping nor
// the overlap changed p otherwise (one convolution an iteration instead of
// two), and is formed again for the stopping test and the result.
#include <Eigen/Core>

#include "reference/quasi_rigid/fft_half_space.hpp"

namespace contactref::quasi_rigid {

struct GridContactOptions {
  // max |s| over the loaded cells over the deepest overlap max(-g): the
  // stopping test (1e-10: a thousandth of a nanometre per centimetre of
  // overlap; the discretisation errors are some 1e-3).
  double tolerance = 1e-10;
  // Conjugate-gradient iterations before a ComputationError (Polonsky &
  // Keer's converge in some tens to hundreds on 10^4 to 10^6 cells; the
  // conjugate directions need at most one iteration per cell between
  // changes of the contact set).
  int max_iterations = 10000;
};

struct GridContact {
  Eigen::ArrayXXd pressure;      // Pa, per cell, >= 0
  Eigen::ArrayXXd displacement;  // m: K p at the cells' centres
  int iterations = 0;            // conjugate-gradient iterations
  int convolutions = 0;          // products with K (FFT pairs)
  double residual = 0;           // max |s| over the loaded cells (m) at the end
};

// gap: g per cell (m, negative: overlap), +infinity on cells outside the
// contact region (their pressure stays 0 whatever their separation).
// initial_pressure: where the iterations start (Pa, >= 0; a previous
// solution), or empty: 0. InputError: a gap or initial pressure of another
// size than the operator's grid, a NaN or -infinity gap, a negative or
// non-finite initial pressure, options out of range (tolerance not finite
// and > 0, max_iterations < 1). ComputationError: no convergence in
// max_iterations.
GridContact solve_grid_contact(const FftHalfSpace& K, const Eigen::ArrayXXd& gap,
                               const Eigen::ArrayXXd& initial_pressure = {}, const GridContactOptions& options = {});

}  // namespace contactref::quasi_rigid
