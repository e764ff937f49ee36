#pragma once
// What the run viewer (viewer/, `contactref view`) reads from a `simulate`
// output folder, checked before the folder is served, so that a missing or
// damaged file is named by the command (exit 2) and not found by the page
// half-way through a run:
//   summary.json  a JSON object whose "files" names the run's files;
//   shapes.json   each body's name and shape file (shapes/bodyK.ply), or
//                 null with a reason (an unbounded surface); each named file
//                 read by the project's PLY reader;
//   bodies.csv    its header (output_files.hpp), at least one row, each row
//                 with the header's column count and every cell but `body`
//                 a finite number;
//   contacts.csv  when "files" names it: the same, its text columns (kind,
//                 a, b, body, state) aside and empty cells allowed (the smooth
//                 model's rows in flight);
//   samples.bin   when "files" names it ("samples"): samples_file.hpp's check.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace contactref::cli {

// A CSV text as its header and rows of cells (RFC 4180: a quoted cell may
// hold commas, doubled quotes and line breaks). InputError naming `name`
// and the line for an unterminated quote, text after a closing quote, or a
// row whose cell count is not the header's.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> row_lines;  // the line each row starts on (1 is the header)
};
CsvTable parse_csv(const std::string& text, const std::string& name);

// Every cell of `table` is a finite number, except in the columns named in
// `text_columns`; with `allow_empty`, an empty cell is accepted too.
// InputError naming `name`, the line and the column otherwise.
void check_numeric_cells(const CsvTable& table, const std::string& name, const std::vector<std::string>& text_columns,
                         bool allow_empty);

struct RunFolder {
  std::size_t body_rows = 0;     // bodies.csv
  std::size_t contact_rows = 0;  // contacts.csv (0 without one)
  std::size_t sample_steps = 0;  // samples.bin's records (0 without one)
  std::size_t samples = 0;       // and the samples in them
  std::size_t shapes = 0;        // shape files read
};
// Checks `folder` as above; InputError naming the file (and line and
// column) that is missing or wrong.
RunFolder check_run_folder(const std::filesystem::path& folder);

}  // namespace contactref::cli
