#include "validation/app/samples_file.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "validation/app/output_files.hpp"

namespace contactref::cli {
namespace {

// Little-endian bytes of an unsigned integer of `bytes` bytes.
void put(std::string& out, std::uint64_t value, int bytes) {
  for (int b = 0; b < bytes; ++b) out += char((value >> (8 * b)) & 0xff);
}

std::uint64_t get(const std::string& in, std::size_t at, int bytes) {
  std::uint64_t value = 0;
  for (int b = 0; b < bytes; ++b) value |= std::uint64_t(static_cast<unsigned char>(in[at + std::size_t(b)])) << (8 * b);
  return value;
}

void put_float(std::string& out, double value, const std::filesystem::path& path, double time, const char* what) {
  if (!std::isfinite(value) || !std::isfinite(float(value)))
    throw ComputationError(fmt::format("{}: a sample's {} is {} at t = {:.9g} s (not finite as a float32; the file "
                                       "ends at the step before)",
                                       path.string(), what, value, time));
  put(out, std::bit_cast<std::uint32_t>(float(value)), 4);
}

}  // namespace

SamplesFile::SamplesFile(const std::filesystem::path& path) : path_(path), out_(open_output(path)) {
  out_.write(kSamplesMagic, sizeof kSamplesMagic);
}

void SamplesFile::write(const quasi_rigid::StepRecord& step) {
  if (!std::isfinite(step.time)) throw ComputationError(fmt::format("{}: a step's time is {}", path_.string(), step.time));
  std::string record;
  record.reserve(12 + 16 * step.samples.size());
  put(record, std::bit_cast<std::uint64_t>(step.time), 8);
  put(record, step.samples.size(), 4);
  for (const quasi_rigid::StepRecord::Sample& sample : step.samples) {
    for (int c = 0; c < 3; ++c) put_float(record, sample.loaded.x_w(c), path_, step.time, "position");
    put_float(record, sample.loaded.traction, path_, step.time, "traction");
  }
  out_.write(record.data(), std::streamsize(record.size()));
  const auto now = std::chrono::steady_clock::now();
  if (now - flushed_ > std::chrono::seconds(2)) out_.flush(), flushed_ = now;
}

void SamplesFile::close() {
  if (out_.is_open()) close_output(out_, path_);
}

SamplesSummary check_samples_file(const std::filesystem::path& path) {
  const std::string bytes = read_input_file(path, "the run's samples file");
  const std::string name = path.string();
  if (bytes.size() < sizeof kSamplesMagic || std::memcmp(bytes.data(), kSamplesMagic, sizeof kSamplesMagic) != 0)
    throw InputError(name + ": not a samples file (it does not start with CRSMPL01)");
  SamplesSummary summary;
  double last_time = -INFINITY;
  for (std::size_t at = sizeof kSamplesMagic; at < bytes.size(); ++summary.steps) {
    const std::string record = fmt::format("{}: step record {} at byte {}", name, summary.steps, at);
    if (bytes.size() - at < 12) throw InputError(record + ": truncated (its time and count need 12 bytes)");
    const double time = std::bit_cast<double>(get(bytes, at, 8));
    const std::uint64_t count = get(bytes, at + 8, 4);
    if (!std::isfinite(time)) throw InputError(record + ": the time is not finite");
    if (time < last_time) throw InputError(fmt::format("{}: the time {} goes back (after {})", record, time, last_time));
    at += 12;
    if ((bytes.size() - at) / 16 < count)
      throw InputError(fmt::format("{}: {} samples need {} bytes, {} are left (a truncated file)", record, count,
                                   16 * count, bytes.size() - at));
    for (std::uint64_t k = 0; k < 4 * count; ++k, at += 4) {
      if (!std::isfinite(std::bit_cast<float>(std::uint32_t(get(bytes, at, 4)))))
        throw InputError(fmt::format("{}: sample {}'s {} is not finite", record, k / 4,
                                     k % 4 == 3 ? "traction" : "coordinate"));
    }
    last_time = time;
    summary.samples += count;
  }
  return summary;
}

}  // namespace contactref::cli
