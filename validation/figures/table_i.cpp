#include "validation/figures/table_i.hpp"

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>

#include "validation/build_info.hpp"

namespace contactref::validation {

void write_table_i_figure_data(const std::filesystem::path& dir) {
  // The paper's times (ms, 350 MHz Pentium II, Java HotSpot), Table I.
  std::ofstream paper(dir / "paper.csv");
  paper << "row,paper_ms\n"
           "Loop regular,0.2413\nLoop extraordinary (3),0.1683\nLoop extraordinary (5),0.1933\n"
           "Loop extraordinary (7),0.2223\nLoop extraordinary (10),0.2654\nS-patch (3 sides),0.1632\n"
           "S-patch (4 sides),0.4466\nS-patch (5 sides),1.1006\nS-patch (10 sides),20.0248\nBi-cubic Bezier,0.0801\n";
  if (!paper) throw std::runtime_error("cannot write " + (dir / "paper.csv").string());
  const std::filesystem::path benchmarks = std::filesystem::path(build_info::binary_dir) / "benchmarks";
  for (const char* program : {"bench_surfaces", "bench_s_patch"}) {
    const std::filesystem::path binary = benchmarks / program;
    if (!std::filesystem::exists(binary)) continue;  // the release build has them; others may not
    const std::string command = fmt::format(
        "'{}' --benchmark_filter=TableI --benchmark_min_time=0.05 --benchmark_repetitions=3 "
        "--benchmark_report_aggregates_only=true --benchmark_out='{}' --benchmark_out_format=json > /dev/null 2>&1",
        binary.string(), (dir / (std::string(program) + ".json")).string());
    if (std::system(command.c_str()) != 0) throw std::runtime_error("the benchmark " + binary.string() + " failed");
  }
}

}  // namespace contactref::validation
