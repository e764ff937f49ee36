#pragma once
// Figure `table-i`: Kry & Pai Table I (thesis Table 6.1) regenerated. The data
// are the medians of the Table I benchmarks (benchmarks/surfaces_bench.cpp and,
// when built, benchmarks/s_patch_bench.cpp), run here with a short minimum
// time and written as Google Benchmark JSON beside the paper's times.
#include <filesystem>

namespace contactref::validation {

void write_table_i_figure_data(const std::filesystem::path& dir);

}  // namespace contactref::validation
