// The `contactref` command line: see `contactref --help`.
#include "validation/app/subcommands.hpp"

int main(int argc, char** argv) { return contactref::cli::run(argc, argv); }
