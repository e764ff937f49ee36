// The unit that carries the tests' precompiled header (tests/CMakeLists.txt,
// cmake/PrecompiledHeaders.cmake); it defines nothing.
