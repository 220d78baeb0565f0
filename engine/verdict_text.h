// Helpers shared by the rule files to reject an action: the sentence is built only when it is wanted (the hot
// path, Game::Check, passes no string).
#pragma once

#include <string>

#include "engine/action.h"

namespace swref::engine {

template <typename Text>
Code Reject(std::string* why, Code code, Text&& text) {
  if (why) *why = text();
  return code;
}

inline std::string RegionName(int id) { return "region " + std::to_string(id); }

}  // namespace swref::engine
