// The swref command table: each command is a function that parses its options, calls app/core and prints.
// Exit codes: 0 success, 1 the work failed (e.g. a benchmark goal), 2 bad input (a malformed record, a bad
// option), with one line on stderr that names the place.
#pragma once

#include <string>
#include <vector>

namespace swref::cli {

int Main(int argc, char** argv);

}  // namespace swref::cli
