#pragma once
// A patch complex of one patch: the analytic surfaces' test scenes.
#include <memory>

#include "reference/surfaces/patch_complex.hpp"

namespace contactref::test {

template <class T>
surfaces::PatchComplex<T> one_patch(std::unique_ptr<surfaces::Patch<T>> patch) {
  surfaces::PatchComplex<T> complex;
  complex.patches.push_back(std::move(patch));
  return complex;
}

}  // namespace contactref::test
