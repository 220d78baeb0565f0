// The text of the four official map files (data/maps), compiled into the binary so that swref needs no data
// files at run time. Generated at build time by cmake/embed_maps.cmake.
#pragma once

#include <string_view>

namespace swref::engine {

// The JSON text of built-in map "2p".."5p", or nullptr for any other key.
const char* BuiltinMapText(std::string_view key);

}  // namespace swref::engine
