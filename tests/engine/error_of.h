// A result's error for comparison in a test: "" when it succeeded.
#pragma once

#include <string>

#include "engine/result.h"

namespace swref::test {

template <class T>
std::string ErrorOf(const engine::Result<T>& r) {
  return r.ok() ? std::string() : r.error();
}

}  // namespace swref::test
