#pragma once
// samples.bin: the quasi-rigid model's loaded samples per step in binary, for
// viewing long runs of many samples (the foot's 56k samples over 10,000
// steps would be 1.5 GB of contacts.csv; this is 16 bytes a sample). A
// scene asks for it with "output": {"samples": "binary"}; contacts.csv is
// then not written, and summary.json's files.samples names this file.
//
// Layout, little-endian, no padding:
//   8 bytes        the magic "CRSMPL01"
//   then one record per step, in the order of the steps:
//     float64      the step's end time (s)
//     uint32       n, the number of loaded samples at the step's end (may be 0)
//     n x float32  x, y, z (m, world) and the traction (Pa) of each sample
//                  (contacts.csv's x, y, z and pressure; its other columns
//                  are left out)
// Every record starts at a multiple of 4 bytes, so a reader may view the
// floats in place.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "reference/quasi_rigid/quasi_rigid_dynamics.hpp"
#include "reference/spatial/row_sink.hpp"

namespace contactref::cli {

inline constexpr char kSamplesMagic[8] = {'C', 'R', 'S', 'M', 'P', 'L', '0', '1'};

// Writes the records as the steps come (flushed every 2 s, as CsvFile, so
// that a long run's file can be read while it runs). ComputationError if
// the file cannot be written or a value is not finite (a run's numbers are
// checked where they are made; this is the last line).
class SamplesFile final : public spatial::RowSink<quasi_rigid::StepRecord> {
 public:
  explicit SamplesFile(const std::filesystem::path& path);
  void write(const quasi_rigid::StepRecord& step) override;
  void close();

 private:
  std::filesystem::path path_;
  std::ofstream out_;
  std::chrono::steady_clock::time_point flushed_ = std::chrono::steady_clock::now();
};

struct SamplesSummary {
  std::size_t steps = 0;
  std::size_t samples = 0;
};
// Reads and checks a samples.bin: the magic, every record whole, times
// finite and never decreasing, every number finite. InputError naming the
// file, the record and its byte offset otherwise.
SamplesSummary check_samples_file(const std::filesystem::path& path);

}  // namespace contactref::cli
