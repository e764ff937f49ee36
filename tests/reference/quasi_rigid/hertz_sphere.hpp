#pragma once
// The elastic sphere of the point-contact tests (point_contact_test.cpp,
// multi_level_test.cpp): radius (m), Young's modulus (Pa), Poisson's ratio.
namespace contactref::test {

inline constexpr double kHertzRadius = 0.05, kHertzE = 1e9, kHertzNu = 0.3;

}  // namespace contactref::test
