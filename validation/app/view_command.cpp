// `contactref view DIR [--port N] [--host H] [--for SECONDS] [--check]`: the
// run viewer (viewer/, issue 33). Checks DIR as the page will read it
// (run_folder.hpp; exit 2 naming what is missing or wrong), then serves the
// page (bundled by the build into BUILD/viewer/) at / and DIR at /run/ on
// localhost with cpp-httplib, and prints the page's address. It serves until
// interrupted, or for --for seconds.
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <fmt/format.h>
#include <httplib.h>
#include <iostream>
#include <mutex>
#include <thread>

#include "core/errors.hpp"
#include "validation/app/run_folder.hpp"
#include "validation/app/subcommands.hpp"
#include "validation/build_info.hpp"

namespace contactref::cli {
namespace {

struct ViewOptions {
  std::string folder;
  std::string host = "127.0.0.1";
  int port = 0;
  double seconds = 0;
  bool check = false;
};

int run_view(const ViewOptions& options) {
  if (options.port < 0 || options.port > 65535) throw InputError("view: --port must be in [0, 65535] (0: any free port)");
  if (!std::isfinite(options.seconds) || options.seconds < 0)
    throw InputError("view: --for must be a finite number of seconds >= 0 (0: until interrupted)");
  const RunFolder run = check_run_folder(options.folder);
  std::cout << fmt::format("view: {}: {} body rows, {} contact rows, {} shapes{}\n", options.folder, run.body_rows,
                           run.contact_rows, run.shapes,
                           run.sample_steps ? fmt::format(", {} samples in {} steps (samples.bin)", run.samples,
                                                          run.sample_steps)
                                            : "");
  if (options.check) return 0;

  const std::filesystem::path page = std::filesystem::path(build_info::binary_dir) / "viewer";
  if (!std::filesystem::is_regular_file(page / "index.html") || !std::filesystem::is_regular_file(page / "viewer.js")) {
    throw ComputationError("view: the viewer page was not built (" + page.string() +
                           " has no index.html and viewer.js): it needs Node.js and viewer/node_modules, which "
                           "scripts/bootstrap.sh installs; then rebuild");
  }
  httplib::Server server;
  server.set_mount_point("/run", options.folder);
  server.set_mount_point("/", page.string());
  server.set_file_extension_and_mimetype_mapping("ply", "application/octet-stream");
  server.set_post_routing_handler([](const httplib::Request&, httplib::Response& response) {
    response.set_header("Cache-Control", "no-store");  // a run rewritten in place is shown as it is now
  });
  const int port = options.port == 0 ? server.bind_to_any_port(options.host)
                                     : (server.bind_to_port(options.host, options.port) ? options.port : -1);
  if (port < 0) throw InputError(fmt::format("view: cannot listen on {}:{} (in use, or not this machine's)", options.host, options.port));
  std::cout << fmt::format("view: open http://{}:{}/index.html?run=run/ ({})\n", options.host, port,
                           options.seconds > 0 ? fmt::format("for {} s", options.seconds) : "Ctrl-C stops it")
            << std::flush;
  // --for: a timer stops the server, or is told that it stopped on its own.
  std::mutex mutex;
  std::condition_variable stopped;
  bool done = false;
  std::thread timer;
  if (options.seconds > 0) {
    timer = std::thread([&, seconds = std::chrono::duration<double>(options.seconds)] {
      std::unique_lock lock(mutex);
      if (!stopped.wait_for(lock, seconds, [&] { return done; })) server.stop();
    });
  }
  const bool served = server.listen_after_bind();  // false: accepting failed (a stop() returns true)
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  stopped.notify_all();
  if (timer.joinable()) timer.join();
  if (!served) throw ComputationError("view: the server stopped: accepting a connection failed");
  return 0;
}

}  // namespace

Action configure_view(CLI::App& app) {
  auto options = std::make_shared<ViewOptions>();
  app.add_option("folder", options->folder, "a contactref simulate --out folder")->required();
  app.add_option("--host", options->host, "address to listen on (default: 127.0.0.1, this machine only)");
  app.add_option("--port", options->port, "port (default: 0, any free port; the address is printed)");
  app.add_option("--for", options->seconds, "serve for this many seconds, then exit 0 (default: 0, until interrupted)");
  app.add_flag("--check", options->check, "check the folder as the viewer reads it, print its counts and exit");
  return [options] { return run_view(*options); };
}

}  // namespace contactref::cli
