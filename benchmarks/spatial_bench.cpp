// Hot paths of reference/spatial: Adjoint construction and application, the
// Newton-Euler state derivative (Eq. 15), the SE(3) exponential and one
// free-body RK4 step, in double and in the 50-digit referee.
#include <benchmark/benchmark.h>

#include <vector>

#include "reference/spatial/free_body.hpp"
#include "validation/fixtures/random_spatial.hpp"

namespace {

namespace sp = contactref::spatial;
using contactref::Real50;
using contactref::Vec6;
using contactref::Mat4;
using contactref::fixtures::to_scalar;

constexpr std::size_t kInputs = 64;  // cycled, so the data stays in cache but is not constant

template <class T>
struct Inputs {
  std::vector<Mat4<T>> poses;
  std::vector<Vec6<T>> twists;
  std::vector<sp::FreeBodyState<T>> states;
  std::vector<sp::RigidBodyInertia<T>> bodies;

  Inputs() {
    contactref::fixtures::Rng rng(42);
    for (std::size_t n = 0; n < kInputs; ++n) {
      poses.push_back(to_scalar<T>(contactref::fixtures::random_pose(rng)));
      twists.push_back(to_scalar<T>(contactref::fixtures::random_twist(rng)));
      states.push_back(to_scalar<T>(sp::make_free_body_state<double>(contactref::fixtures::random_unit_quaternion(rng),
                                                                      contactref::fixtures::random_vector3(rng),
                                                                      contactref::fixtures::random_twist(rng))));
      const auto [m, I] = contactref::fixtures::random_inertia(rng);
      bodies.emplace_back(T(m), to_scalar<T>(I));
    }
  }
};

template <class T>
const Inputs<T>& inputs() {
  static const Inputs<T> data;
  return data;
}

template <class T>
void BM_AdjointApply(benchmark::State& state) {
  const auto& in = inputs<T>();
  std::size_t i = 0;
  for (auto _ : state) {
    Vec6<T> phi = sp::adjoint(in.poses[i]) * in.twists[i];
    benchmark::DoNotOptimize(phi);
    i = (i + 1) % kInputs;
  }
}

template <class T>
void BM_WrenchAdjointApply(benchmark::State& state) {
  const auto& in = inputs<T>();
  std::size_t i = 0;
  for (auto _ : state) {
    Vec6<T> f = sp::wrench_adjoint(in.poses[i]) * in.twists[i];
    benchmark::DoNotOptimize(f);
    i = (i + 1) % kInputs;
  }
}

template <class T>
void BM_TransformTwist(benchmark::State& state) {
  const auto& in = inputs<T>();
  std::size_t i = 0;
  for (auto _ : state) {
    Vec6<T> phi = sp::transform_twist(in.poses[i], in.twists[i]);
    benchmark::DoNotOptimize(phi);
    i = (i + 1) % kInputs;
  }
}

template <class T>
void BM_Se3Exp(benchmark::State& state) {
  const auto& in = inputs<T>();
  std::size_t i = 0;
  for (auto _ : state) {
    Mat4<T> E = sp::se3_exp(in.twists[i]);
    benchmark::DoNotOptimize(E);
    i = (i + 1) % kInputs;
  }
}

template <class T>
void BM_NewtonEulerDerivative(benchmark::State& state) {
  const auto& in = inputs<T>();
  std::size_t i = 0;
  for (auto _ : state) {
    sp::FreeBodyState<T> dy = sp::free_body_derivative<T>(in.bodies[i], in.states[i], in.twists[i]);
    benchmark::DoNotOptimize(dy);
    i = (i + 1) % kInputs;
  }
}

template <class T>
void BM_FreeBodyRk4Step(benchmark::State& state) {
  const auto& in = inputs<T>();
  const auto no_wrench = [](const T&, const sp::FreeBodyState<T>&) { return Vec6<T>::Zero().eval(); };
  std::size_t i = 0;
  for (auto _ : state) {
    sp::FreeBodyState<T> y = sp::free_body_rk4_step<T>(in.bodies[i], T(0), in.states[i], T(0.01), no_wrench);
    benchmark::DoNotOptimize(y);
    i = (i + 1) % kInputs;
  }
}

BENCHMARK(BM_AdjointApply<double>);
BENCHMARK(BM_WrenchAdjointApply<double>);
BENCHMARK(BM_TransformTwist<double>);
BENCHMARK(BM_Se3Exp<double>);
BENCHMARK(BM_NewtonEulerDerivative<double>);
BENCHMARK(BM_FreeBodyRk4Step<double>);
BENCHMARK(BM_AdjointApply<Real50>);
BENCHMARK(BM_NewtonEulerDerivative<Real50>);

}  // namespace
