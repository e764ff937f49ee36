#include "reference/kinematics/contact_frame.hpp"

#include <array>
#include <utility>

#include "reference/spatial/pose.hpp"

namespace contactref::kinematics {
namespace {

// A vector field a(s, t) with its partial derivatives to second order.
template <class T>
struct VectorJet {
  Vec3<T> v, s, t, ss, st, tt;
};

// n = a / |a| and its partials (notes 2.4): with r = |a| and r_k = n . a_k,
//   n_k  = (a_k - n (n . a_k)) / r
//   n_kl = (a_kl - n_k (n . a_l) - n_l (n . a_k) - n (n_l . a_k + n . a_kl)) / r
// (differentiate r n_k = a_k - n (n . a_k) in l); the second partials only
// where `second_order`.
template <class T>
VectorJet<T> normalized(const VectorJet<T>& a, bool second_order) {
  const T inverse_r = 1 / a.v.norm();  // one division, not fifteen
  VectorJet<T> n;
  n.v = a.v * inverse_r;
  n.s = (a.s - n.v * n.v.dot(a.s)) * inverse_r;
  n.t = (a.t - n.v * n.v.dot(a.t)) * inverse_r;
  if (!second_order) return n;
  const auto second = [&](const Vec3<T>& a_k, const Vec3<T>& a_l, const Vec3<T>& a_kl, const Vec3<T>& n_k,
                          const Vec3<T>& n_l) -> Vec3<T> {
    return (a_kl - n_k * n.v.dot(a_l) - n_l * n.v.dot(a_k) - n.v * (n_l.dot(a_k) + n.v.dot(a_kl))) * inverse_r;
  };
  n.ss = second(a.s, a.s, a.ss, n.s, n.s);
  n.st = second(a.s, a.t, a.st, n.s, n.t);
  n.tt = second(a.t, a.t, a.tt, n.t, n.t);
  return n;
}

// The frame's axes x and z with their partials (Eq. 5), to first order from
// the jet's second, or to second order from its third.
template <class T>
std::pair<VectorJet<T>, VectorJet<T>> frame_axes(const surfaces::PatchJet<T>& jet, bool second_order) {
  const Vec3<T> c_s = jet.c_s(), c_t = jet.c_t(), c_ss = jet.c_ss(), c_st = jet.c_st(), c_tt = jet.c_tt();
  // x from a = c_s; z from m = c_s x c_t: m_s = c_ss x c_t + c_s x c_st,
  // m_t = c_st x c_t + c_s x c_tt, and once more by the product rule
  // (c_st x c_st = 0 drops from m_st).
  VectorJet<T> a{c_s, c_ss, c_st, {}, {}, {}};
  VectorJet<T> m{c_s.cross(c_t), c_ss.cross(c_t) + c_s.cross(c_st), c_st.cross(c_t) + c_s.cross(c_tt), {}, {}, {}};
  if (second_order) {
    a.ss = jet.c_sss();
    a.st = jet.c_sst();
    a.tt = jet.c_stt();
    m.ss = jet.c_sss().cross(c_t) + 2 * c_ss.cross(c_st) + c_s.cross(jet.c_sst());
    m.st = jet.c_sst().cross(c_t) + c_ss.cross(c_tt) + c_s.cross(jet.c_stt());
    m.tt = jet.c_stt().cross(c_t) + 2 * c_st.cross(c_tt) + c_s.cross(jet.c_ttt());
  }
  return {normalized(a, second_order), normalized(m, second_order)};
}

// The derivatives of n = a / |a| along a direction D, from n, 1 / r = 1 / |a|
// and a's (a_D, a_DD), notes 2.4's partials contracted with the direction twice:
//   n_D = (a_D - n (n . a_D)) / r,  n_DD = (a_DD - 2 n_D (n . a_D) - n (n_D . a_D + n . a_DD)) / r.
template <class T, class Axis>
std::pair<Vec3<T>, Vec3<T>> normalized_rates(const Axis& n, const T& inverse_r, const Vec3<T>& a_D, const Vec3<T>& a_DD) {
  const T n_a_D = n.dot(a_D);
  const Vec3<T> n_D = (a_D - n * n_a_D) * inverse_r;
  return {n_D, Vec3<T>((a_DD - 2 * n_a_D * n_D - n * (n_D.dot(a_D) + n.dot(a_DD))) * inverse_r)};
}

}  // namespace

template <class T>
ContactFrame<T> contact_frame(const surfaces::PatchJet<T>& jet) {
  const auto [x, z] = frame_axes(jet, false);
  const Vec3<T> c_s = jet.c_s(), c_t = jet.c_t();
  const Vec3<T> y = z.v.cross(x.v);
  const Vec3<T> y_s = z.s.cross(x.v) + z.v.cross(x.s);
  const Vec3<T> y_t = z.t.cross(x.v) + z.v.cross(x.t);

  ContactFrame<T> frame;
  Mat3<T> Theta;
  Theta << x.v, y, z.v;
  frame.E_b_bc = spatial::make_pose<T>(Theta, jet.c());
  frame.E_b_bc_s.setZero();
  frame.E_b_bc_s.template topRows<3>() << x.s, y_s, z.s, c_s;
  frame.E_b_bc_t.setZero();
  frame.E_b_bc_t.template topRows<3>() << x.t, y_t, z.t, c_t;
  // Eq. 51, column k in {s, t}: omega from Theta^T Theta_k (Eqs. 46-47), v = Theta^T c_k
  // (Eqs. 48-49; y . c_s = z . c_k = 0 by construction).
  frame.H_bc << -y.dot(z.s), -y.dot(z.t), -z.v.dot(x.s), -z.v.dot(x.t), y.dot(x.s), y.dot(x.t), x.v.dot(c_s),
      x.v.dot(c_t), T(0), y.dot(c_t), T(0), T(0);
  return frame;
}

template <class T>
FrameJacobianPartials<T> frame_jacobian_partials(const surfaces::PatchJet<T>& jet) {
  const auto [x, z] = frame_axes(jet, true);
  const Vec3<T> y = z.v.cross(x.v);
  const Vec3<T> y_s = z.s.cross(x.v) + z.v.cross(x.s);
  const Vec3<T> y_t = z.t.cross(x.v) + z.v.cross(x.t);
  // Eq. 51's columns (contact_frame) differentiated in l in {s, t} by the
  // product rule, with the second partials x_kl, z_kl and c_kl.
  using Pair = std::array<Vec3<T>, 2>;
  const Pair x_k{x.s, x.t}, y_k{y_s, y_t}, z_k{z.s, z.t}, c_k{Vec3<T>(jet.c_s()), Vec3<T>(jet.c_t())};
  const std::array<Pair, 2> x_kl{Pair{x.ss, x.st}, Pair{x.st, x.tt}};
  const std::array<Pair, 2> z_kl{Pair{z.ss, z.st}, Pair{z.st, z.tt}};
  const std::array<Pair, 2> c_kl{Pair{jet.c_ss(), jet.c_st()}, Pair{jet.c_st(), jet.c_tt()}};
  FrameJacobianPartials<T> partials;
  for (std::size_t k = 0; k < 2; ++k) {
    const auto col = Eigen::Index(k);
    for (std::size_t l = 0; l < 2; ++l) {
      Mat62<T>& H_l = l == 0 ? partials.H_bc_s : partials.H_bc_t;
      H_l.col(col) << -(y_k[l].dot(z_k[k]) + y.dot(z_kl[k][l])), -(z_k[l].dot(x_k[k]) + z.v.dot(x_kl[k][l])),
          y_k[l].dot(x_k[k]) + y.dot(x_kl[k][l]), x_k[l].dot(c_k[k]) + x.v.dot(c_kl[k][l]), T(0), T(0);
    }
  }
  partials.H_bc_s(4, 1) = y_s.dot(c_k[1]) + y.dot(c_kl[1][0]);
  partials.H_bc_t(4, 1) = y_t.dot(c_k[1]) + y.dot(c_kl[1][1]);
  return partials;
}

template <class T>
Vec6<T> frame_jacobian_rate(const surfaces::PatchJet<T>& jet, const ContactFrame<T>& frame, const T& s_dot,
                            const T& t_dot) {
  // D c_s, D c_t and their second derivatives along (s', t') held fixed.
  const Vec3<T> c_s = jet.c_s(), c_t = jet.c_t();
  const Vec3<T> c_sD = jet.c_ss() * s_dot + jet.c_st() * t_dot, c_tD = jet.c_st() * s_dot + jet.c_tt() * t_dot;
  const Vec3<T> c_ssD = jet.c_sss() * s_dot + jet.c_sst() * t_dot, c_stD = jet.c_sst() * s_dot + jet.c_stt() * t_dot,
                c_ttD = jet.c_stt() * s_dot + jet.c_ttt() * t_dot;
  const Vec3<T> c_sDD = c_ssD * s_dot + c_stD * t_dot, c_tDD = c_stD * s_dot + c_ttD * t_dot;
  const Vec3<T> c_D = c_s * s_dot + c_t * t_dot, c_DD = c_sD * s_dot + c_tD * t_dot;
  // x = c_s / |c_s|, z = m / |m| with m = c_s x c_t (Eq. 5), and y = z x x;
  // the norms from Eq. 51's entries: |c_s| = x.c_s = H_bc(3, 0) and
  // |m| = |c_s| y.c_t = H_bc(3, 0) H_bc(4, 1) (contact_frame.hpp).
  const auto x = frame.E_b_bc.template block<3, 1>(0, 0), y = frame.E_b_bc.template block<3, 1>(0, 1),
             z = frame.E_b_bc.template block<3, 1>(0, 2);
  const T inverse_norm_c_s = 1 / frame.H_bc(3, 0);
  const auto [x_D, x_DD] = normalized_rates<T>(x, inverse_norm_c_s, c_sD, c_sDD);
  const auto [z_D, z_DD] = normalized_rates<T>(z, inverse_norm_c_s / frame.H_bc(4, 1),
                                               Vec3<T>(c_sD.cross(c_t) + c_s.cross(c_tD)),
                                               Vec3<T>(c_sDD.cross(c_t) + 2 * c_sD.cross(c_tD) + c_s.cross(c_tDD)));
  const Vec3<T> y_D = z_D.cross(x) + z.cross(x_D);
  // D (H_bc k') of Eq. 51's rows: -y.D z, -z.D x, y.D x, x.D c, y.D c (y.c_s = 0 at every point), 0.
  Vec6<T> rate;
  rate << -(y_D.dot(z_D) + y.dot(z_DD)), -(z_D.dot(x_D) + z.dot(x_DD)), y_D.dot(x_D) + y.dot(x_DD),
      x_D.dot(c_D) + x.dot(c_DD), y_D.dot(c_D) + y.dot(c_DD), T(0);
  return rate;
}

template <class T>
Eigen::Matrix<T, 2, 2> curvature(const ContactFrame<T>& frame) {
  using Mat2 = Eigen::Matrix<T, 2, 2>;
  // H_bc rows 0-1: (-y.z_s, -y.z_t) and (-z.x_s, -z.x_t) = (x.z_s, x.z_t) (z.x = 0).
  Mat2 N;
  N << frame.H_bc.row(1), -frame.H_bc.row(0);
  const Mat2 J = frame.H_bc.template middleRows<2>(3);  // upper triangular
  return Mat2(J.transpose().template triangularView<Eigen::Lower>().solve(N.transpose())).transpose();
}

#define CONTACTREF_INSTANTIATE(T) \
  template ContactFrame<T> contact_frame<T>(const surfaces::PatchJet<T>&); \
  template FrameJacobianPartials<T> frame_jacobian_partials<T>(const surfaces::PatchJet<T>&); \
  template Vec6<T> frame_jacobian_rate<T>(const surfaces::PatchJet<T>&, const ContactFrame<T>&, const T&, const T&); \
  template Eigen::Matrix<T, 2, 2> curvature<T>(const ContactFrame<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::kinematics
