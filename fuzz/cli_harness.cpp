#include "fuzz/cli_harness.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <cctype>
#include <sstream>

#include "validation/app/subcommands.hpp"

namespace contactref::fuzz {

const std::filesystem::path& scratch() {
  static const std::filesystem::path folder = [] {
    auto p = std::filesystem::temp_directory_path() / ("contactref-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return folder;
}

std::filesystem::path write_file(const std::string& name, std::string_view bytes) {
  const std::filesystem::path path = scratch() / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
  return path;
}

std::filesystem::path source(const std::string& relative) {
  return std::filesystem::path(CONTACTREF_SOURCE_DIR) / relative;
}

std::vector<std::string> option_arguments(const std::string& line, const std::set<std::string>& with_value,
                                          const std::set<std::string>& flags) {
  std::vector<std::string> args;
  std::istringstream words(line);
  for (std::string word; words >> word;) {
    if (flags.count(word)) {
      args.push_back(word);
    } else if (std::string value; with_value.count(word) && words >> value) {
      args.push_back(word);
      args.push_back(value);
    }
  }
  return args;
}

CliRun run_cli(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"contactref"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  std::streambuf* const cout_buffer = std::cout.rdbuf(out.rdbuf());
  std::streambuf* const cerr_buffer = std::cerr.rdbuf(err.rdbuf());
  CliRun run;
  run.exit_code = cli::run(int(argv.size()), argv.data());
  std::cout.rdbuf(cout_buffer);
  std::cerr.rdbuf(cerr_buffer);
  run.out = out.str();
  run.err = err.str();
  return run;
}

namespace {

// The first word of `out` (letters, digits, '_', '"' and '.' are word
// characters) that names a non-finite number: nan, inf, infinity (any case,
// optionally signed), or a JSON null that is not the whole value of one of
// `null_keys`. Empty if there is none. (A scan, not std::regex: libstdc++'s
// regex recurses per character and overflows the stack on long outputs.)
std::string non_finite_word(const std::string& out, const std::vector<std::string>& null_keys) {
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '"' || c == '.'; };
  for (std::size_t i = 0; i < out.size();) {
    if (!word_char(out[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < out.size() && word_char(out[j])) ++j;
    std::string word = out.substr(i, j - i);
    for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (word == "nan" || word == "inf" || word == "infinity") return word;
    if (word == "null") {
      // The key before it: `"key": null`.
      std::size_t k = i;
      while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == ':')) --k;
      const std::size_t key_end = k;
      const bool allowed = std::any_of(null_keys.begin(), null_keys.end(), [&](const std::string& key) {
        const std::string quoted = "\"" + key + "\"";
        return key_end >= quoted.size() && out.compare(key_end - quoted.size(), quoted.size(), quoted) == 0;
      });
      if (!allowed) return word;
    }
    i = j;
  }
  return {};
}

// Whether a line of `text` starts with `prefix` (messages may quote the
// input, so a match inside a line does not count).
bool starts_a_line(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0 || text.find("\n" + prefix) != std::string::npos;
}

}  // namespace

void expect_sound(const CliRun& run, const std::vector<std::string>& args, const std::vector<std::string>& null_keys) {
  std::string problem;
  if (run.exit_code < 0 || run.exit_code > 2) problem = "exit code other than 0, 1 or 2";
  else if (starts_a_line(run.err, "contactref: error:"))
    problem = "an error that is not the project's own";
  else if (starts_a_line(run.err, "contactref: internal error:"))
    problem = "a broken internal invariant";
  else if (const std::string word = non_finite_word(run.out, null_keys); !word.empty())
    problem = "a non-finite number in the output (" + word + ")";
  if (problem.empty()) return;
  std::cerr << "fuzz finding: " << problem << "\ncommand: contactref";
  for (const std::string& a : args) std::cerr << ' ' << a;
  std::cerr << "\nexit code: " << run.exit_code << "\nstdout:\n" << run.out << "\nstderr:\n" << run.err << std::endl;
  std::abort();
}

CliRun check_cli(const std::vector<std::string>& args, const std::vector<std::string>& null_keys) {
  CliRun run = run_cli(args);
  expect_sound(run, args, null_keys);
  return run;
}

}  // namespace contactref::fuzz
