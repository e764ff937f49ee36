// Placeholder: the contact kinematics tests are being written.
#include <gtest/gtest.h>
TEST(ContactKinematics, Placeholder) { SUCCEED(); }
