#pragma once
// Eigen matrices in the CLI's JSON: a matrix as an array of its rows, a column
// vector as a flat array.
#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace contactref::cli {

template <class Matrix>
nlohmann::ordered_json rows(const Eigen::MatrixBase<Matrix>& m) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    out.push_back(m.cols() == 1 ? row[0] : row);
  }
  return out;
}

}  // namespace contactref::cli
