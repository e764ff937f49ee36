#pragma once
// A measured figure printed beside a test's output, for the reader of the
// log: "[topic] what: 1.234e-05".
#include <iomanip>
#include <iostream>
#include <string>

namespace contactref::test {

inline void report(const std::string& topic, const std::string& what, double value) {
  std::cout << "[" << topic << "] " << what << ": " << std::scientific << std::setprecision(3) << value
            << std::defaultfloat << "\n";
}

}  // namespace contactref::test
