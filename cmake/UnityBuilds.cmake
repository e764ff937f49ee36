# CONTACTREF_UNITY: unity builds (CMake's UNITY_BUILD, batches of up to
# eight sources) for the test programs (tests/CMakeLists.txt) and for the
# libraries that ask for one (contactref_library's UNITY). A batch shares the
# parsing of the headers its sources include and the instantiations of the
# templates they use: spatial_test's four units took 116 s of GCC apart and
# 64 s as one. A name that two sources of a batch would both define in their
# anonymous namespaces belongs in a header, or in the source's own named
# namespace. On in every preset but coverage, which compiles each source on
# its own, so that a source that uses a header it does not include fails
# there. (The sanitized build used to be that check: it took 912 s cold
# where it takes about 620 s in unity units; see README.md, "CI".)
option(CONTACTREF_UNITY "Compile the tests and the libraries that ask for it as unity units of up to eight sources" ON)
