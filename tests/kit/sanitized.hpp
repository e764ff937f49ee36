#pragma once
// Whether this is the sanitized build (ASan + UBSan, cmake/Sanitizers.cmake),
// where Eigen's small-matrix code runs some 35 times slower: the heaviest
// accuracy studies then run one case of their several, or at a coarser size,
// so that the memory and undefined-behaviour checks still see every code path
// while the release build checks the numbers in full.
namespace contactref::test {

#ifdef CONTACTREF_SANITIZED_BUILD
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace contactref::test
