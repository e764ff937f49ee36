// core/errors.hpp and core/scalar.hpp: the error vocabulary every layer uses
// and the one way to instantiate a template for every scalar type.
#include <gtest/gtest.h>

#include <string>
#include <limits>
#include <typeinfo>
#include <vector>

#include "core/errors.hpp"
#include "core/scalar.hpp"

namespace contactref {
namespace {

TEST(CoreErrors, LocatedPrefixesTheFileAndALineWhenThereIsOne) {
  EXPECT_EQ(located("cube.off", 12), "cube.off:12: ");
  EXPECT_EQ(located("cube.off", 0), "cube.off: ");  // no line applies (a whole-file property)
  EXPECT_EQ(located("cube.off", -1), "cube.off: ");
}

// The CLI maps each kind to its own exit code (run.cpp): an InternalError
// must be caught neither as bad input nor as a failed computation.
TEST(CoreErrors, ABrokenInvariantIsNeitherAnInputNorAComputationError) {
  EXPECT_NO_THROW(check_invariant(true, "holds"));
  try {
    check_invariant(false, "the mesh lost triangles");
    FAIL() << "check_invariant(false) did not throw";
  } catch (const InputError&) {
    FAIL() << "caught as InputError";
  } catch (const ComputationError&) {
    FAIL() << "caught as ComputationError";
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "the mesh lost triangles");
  }
}

// Both in order in the release build; double alone in a sanitized build.
TEST(CoreScalar, ForEachScalarNamesDoubleAndReal50InThatOrder) {
  std::vector<std::string> names;
#define CONTACTREF_TEST_NAME(T) names.push_back(typeid(T).name());
  CONTACTREF_FOR_EACH_SCALAR(CONTACTREF_TEST_NAME)
#undef CONTACTREF_TEST_NAME
#ifdef CONTACTREF_SANITIZED_BUILD
  EXPECT_EQ(CONTACTREF_HAS_REAL50, 0);
  EXPECT_EQ(names, (std::vector<std::string>{typeid(double).name()}));
#else
  EXPECT_EQ(CONTACTREF_HAS_REAL50, 1);
  EXPECT_EQ(names, (std::vector<std::string>{typeid(double).name(), typeid(Real50).name()}));
#endif
  EXPECT_EQ(std::numeric_limits<Real50>::digits10, 50);
}

}  // namespace
}  // namespace contactref
