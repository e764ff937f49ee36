#include "reference/kinematics/contact_frame.hpp"

#include <array>

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
// (differentiate r n_k = a_k - n (n . a_k) in l).
template <class T>
VectorJet<T> normalized(const VectorJet<T>& a) {
  const T inverse_r = 1 / a.v.norm();  // one division, not fifteen
  VectorJet<T> n;
  n.v = a.v * inverse_r;
  n.s = (a.s - n.v * n.v.dot(a.s)) * inverse_r;
  n.t = (a.t - n.v * n.v.dot(a.t)) * inverse_r;
  const auto second = [&](const Vec3<T>& a_k, const Vec3<T>& a_l, const Vec3<T>& a_kl, const Vec3<T>& n_k,
                          const Vec3<T>& n_l) -> Vec3<T> {
    return (a_kl - n_k * n.v.dot(a_l) - n_l * n.v.dot(a_k) - n.v * (n_l.dot(a_k) + n.v.dot(a_kl))) * inverse_r;
  };
  n.ss = second(a.s, a.s, a.ss, n.s, n.s);
  n.st = second(a.s, a.t, a.st, n.s, n.t);
  n.tt = second(a.t, a.t, a.tt, n.t, n.t);
  return n;
}

}  // namespace

template <class T>
ContactFrame<T> contact_frame(const surfaces::PatchJet<T>& jet) {
  const Vec3<T> c_s = jet.c_s(), c_t = jet.c_t(), c_ss = jet.c_ss(), c_st = jet.c_st(), c_tt = jet.c_tt();
  // x from a = c_s.
  const VectorJet<T> x = normalized<T>({c_s, c_ss, c_st, jet.c_sss(), jet.c_sst(), jet.c_stt()});
  // z from m = c_s x c_t: m_s = c_ss x c_t + c_s x c_st, m_t = c_st x c_t + c_s x c_tt,
  // and once more by the product rule (c_st x c_st = 0 drops from m_st).
  const VectorJet<T> z = normalized<T>({c_s.cross(c_t), c_ss.cross(c_t) + c_s.cross(c_st), c_st.cross(c_t) + c_s.cross(c_tt),
                                        Vec3<T>(jet.c_sss().cross(c_t) + 2 * c_ss.cross(c_st) + c_s.cross(jet.c_sst())),
                                        Vec3<T>(jet.c_sst().cross(c_t) + c_ss.cross(c_tt) + c_s.cross(jet.c_stt())),
                                        Vec3<T>(jet.c_stt().cross(c_t) + 2 * c_st.cross(c_tt) + c_s.cross(jet.c_ttt()))});
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
  // (Eqs. 48-49; y . c_s = z . c_k = 0 by construction). Its partial in l in {s, t}
  // follows by the product rule, with the second partials x_kl, z_kl and c_kl.
  using Pair = std::array<Vec3<T>, 2>;
  const Pair x_k{x.s, x.t}, y_k{y_s, y_t}, z_k{z.s, z.t}, c_k{c_s, c_t};
  const std::array<Pair, 2> x_kl{Pair{x.ss, x.st}, Pair{x.st, x.tt}};
  const std::array<Pair, 2> z_kl{Pair{z.ss, z.st}, Pair{z.st, z.tt}};
  const std::array<Pair, 2> c_kl{Pair{c_ss, c_st}, Pair{c_st, c_tt}};
  for (std::size_t k = 0; k < 2; ++k) {
    const auto col = Eigen::Index(k);
    frame.H_bc.col(col) << -y.dot(z_k[k]), -z.v.dot(x_k[k]), y.dot(x_k[k]), x.v.dot(c_k[k]), T(0), T(0);
    for (std::size_t l = 0; l < 2; ++l) {
      Mat62<T>& H_l = l == 0 ? frame.H_bc_s : frame.H_bc_t;
      H_l.col(col) << -(y_k[l].dot(z_k[k]) + y.dot(z_kl[k][l])), -(z_k[l].dot(x_k[k]) + z.v.dot(x_kl[k][l])),
          y_k[l].dot(x_k[k]) + y.dot(x_kl[k][l]), x_k[l].dot(c_k[k]) + x.v.dot(c_kl[k][l]), T(0), T(0);
    }
  }
  frame.H_bc(4, 1) = y.dot(c_t);
  frame.H_bc_s(4, 1) = y_s.dot(c_t) + y.dot(c_st);
  frame.H_bc_t(4, 1) = y_t.dot(c_t) + y.dot(c_tt);
  return frame;
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
  template Eigen::Matrix<T, 2, 2> curvature<T>(const ContactFrame<T>&);
CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_INSTANTIATE)
#undef CONTACTREF_INSTANTIATE

}  // namespace contactref::kinematics
