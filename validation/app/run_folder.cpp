#include "validation/app/run_folder.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/mesh_io.hpp"
#include "core/number_text.hpp"
#include "validation/app/samples_file.hpp"

namespace contactref::cli {

CsvTable parse_csv(const std::string& text, const std::string& name) {
  CsvTable table;
  std::vector<std::string> row;
  std::string cell;
  int line = 1, row_line = 1;
  bool quoted = false, closed = false;  // inside a quoted cell; just after its closing quote
  const auto end_row = [&] {
    row.push_back(std::move(cell));
    cell.clear();
    if (table.header.empty() && table.rows.empty() && row_line == 1) {
      table.header = std::move(row);
    } else if (row.size() != table.header.size()) {
      throw InputError(name + ":" + std::to_string(row_line) + ": " + std::to_string(row.size()) +
                       " cells where the header has " + std::to_string(table.header.size()) +
                       " (a truncated or damaged row)");
    } else {
      table.rows.push_back(std::move(row));
      table.row_lines.push_back(row_line);
    }
    row.clear();
    closed = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"', ++i;
      } else if (c == '"') {
        quoted = false, closed = true;
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
    } else if (c == ',') {
      row.push_back(std::move(cell));
      cell.clear();
      closed = false;
    } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      if (c == '\r') ++i;
      end_row();
      row_line = ++line;
    } else if (closed) {
      throw InputError(name + ":" + std::to_string(line) + ": text after a closing quote");
    } else if (c == '"' && cell.empty()) {
      quoted = true;
    } else {
      cell += c;
    }
  }
  if (quoted) throw InputError(name + ":" + std::to_string(row_line) + ": a quoted cell is not closed (a truncated file)");
  if (!cell.empty() || !row.empty() || closed) end_row();  // a last row without its line break
  if (table.header.empty() || (table.header.size() == 1 && table.header[0].empty()))
    throw InputError(name + ": no header (an empty file)");
  return table;
}

void check_numeric_cells(const CsvTable& table, const std::string& name, const std::vector<std::string>& text_columns,
                         bool allow_empty) {
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    for (std::size_t c = 0; c < table.header.size(); ++c) {
      if (std::find(text_columns.begin(), text_columns.end(), table.header[c]) != text_columns.end()) continue;
      const std::string& cell = table.rows[r][c];
      if (cell.empty() && allow_empty) continue;
      const std::optional<double> x = parse_double(cell);
      const std::string where = name + ":" + std::to_string(table.row_lines[r]) + ": column " + table.header[c] + ": ";
      if (!x) throw InputError(where + "\"" + cell + "\" is not a number");
      if (!std::isfinite(*x)) throw InputError(where + non_finite_reason(cell));
    }
  }
}

namespace {

nlohmann::json read_json(const std::filesystem::path& file) {
  const std::string text = read_input_file(file, "the run's " + file.filename().string());
  nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_discarded()) throw InputError(file.string() + ": not valid JSON");
  if (!document.is_object()) throw InputError(file.string() + ": not a JSON object");
  return document;
}

// The index of `column` in the header; InputError when it has none (the
// header must hold every column the viewer reads).
std::size_t column_index(const CsvTable& table, const std::string& name, const std::string& column) {
  const auto at = std::find(table.header.begin(), table.header.end(), column);
  if (at == table.header.end()) throw InputError(name + ": the header has no column " + column);
  return std::size_t(at - table.header.begin());
}
void check_columns(const CsvTable& table, const std::string& name, const std::vector<std::string>& columns) {
  for (const std::string& column : columns) column_index(table, name, column);
}

}  // namespace

RunFolder check_run_folder(const std::filesystem::path& folder) {
  if (!std::filesystem::is_directory(folder))
    throw InputError(folder.string() + ": not a folder (give the --out folder of contactref simulate)");
  const nlohmann::json summary = read_json(folder / "summary.json");
  const nlohmann::json* files = summary.contains("files") ? &summary["files"] : nullptr;
  if (!files || !files->is_object()) throw InputError((folder / "summary.json").string() + ": no \"files\" object");
  const auto listed = [&](const char* key) -> std::string {
    if (!files->contains(key)) return "";
    if (!(*files)[key].is_string()) throw InputError((folder / "summary.json").string() + ": files." + key + " is not a string");
    return (*files)[key].get<std::string>();
  };
  for (const char* key : {"bodies", "shapes"}) {
    if (listed(key).empty())
      throw InputError((folder / "summary.json").string() + ": files." + key + " is missing (not a simulate run?)");
  }
  RunFolder run;

  const std::filesystem::path shapes_file = folder / listed("shapes");
  const nlohmann::json shapes = read_json(shapes_file);
  if (!shapes.contains("bodies") || !shapes["bodies"].is_array())
    throw InputError(shapes_file.string() + ": no \"bodies\" array");
  std::set<std::string> names;
  for (const nlohmann::json& body : shapes["bodies"]) {
    if (!body.is_object() || !body.contains("name") || !body["name"].is_string() || !body.contains("file"))
      throw InputError(shapes_file.string() + ": a body without a name or a file entry");
    names.insert(body["name"].get<std::string>());
    if (body["file"].is_null()) continue;  // not drawn; its "why" says why
    if (!body["file"].is_string()) throw InputError(shapes_file.string() + ": the file of " + body["name"].get<std::string>() + " is not a string");
    const std::filesystem::path mesh = folder / body["file"].get<std::string>();
    parse_ply(read_input_file(mesh, "the shape of " + body["name"].get<std::string>()), mesh.string());
    ++run.shapes;
  }

  const std::string bodies_name = (folder / listed("bodies")).string();
  const CsvTable bodies = parse_csv(read_input_file(bodies_name, "the run's bodies.csv"), bodies_name);
  check_columns(bodies, bodies_name, {"time", "body", "x", "y", "z", "qw", "qx", "qy", "qz"});
  check_numeric_cells(bodies, bodies_name, {"body"}, false);
  if (bodies.rows.empty()) throw InputError(bodies_name + ": no rows (the run wrote none)");
  const std::size_t body_column = column_index(bodies, bodies_name, "body");
  for (std::size_t r = 0; r < bodies.rows.size(); ++r) {
    if (!names.count(bodies.rows[r][body_column]))
      throw InputError(bodies_name + ":" + std::to_string(bodies.row_lines[r]) + ": body \"" +
                       bodies.rows[r][body_column] + "\" is not in " + listed("shapes"));
  }
  run.body_rows = bodies.rows.size();

  if (const std::string contacts = listed("contacts"); !contacts.empty()) {
    const std::string contacts_name = (folder / contacts).string();
    const CsvTable table = parse_csv(read_input_file(contacts_name, "the run's contacts.csv"), contacts_name);
    const std::size_t time_column = column_index(table, contacts_name, "time");
    check_numeric_cells(table, contacts_name, {"kind", "a", "b", "body", "state"}, true);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      if (table.rows[r][time_column].empty())
        throw InputError(contacts_name + ":" + std::to_string(table.row_lines[r]) + ": column time: empty");
    }
    run.contact_rows = table.rows.size();
  }
  if (const std::string samples = listed("samples"); !samples.empty()) {
    const SamplesSummary counted = check_samples_file(folder / samples);
    run.sample_steps = counted.steps;
    run.samples = counted.samples;
  }
  return run;
}

}  // namespace contactref::cli
