// Placeholder: the mass-properties tests are being written.
#include <gtest/gtest.h>
TEST(MassProperties, Placeholder) { SUCCEED(); }
