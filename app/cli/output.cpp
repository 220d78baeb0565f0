#include "app/cli/output.h"

#include <iostream>

namespace swref::cli {

int Fail(const std::string& message, int code) {
  std::cerr << "swref: " << message << "\n";
  return code;
}

}  // namespace swref::cli
