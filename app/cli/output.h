// How every command reports a failure: one line on stderr, "swref: " and the message naming the place (file,
// field, frame), and the exit code to return.
#pragma once

#include <string>

namespace swref::cli {

int Fail(const std::string& message, int code = 2);

}  // namespace swref::cli
