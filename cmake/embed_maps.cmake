# Writes OUT, a C++ file defining swref::engine::BuiltinMapText from the official map files in MAP_DIR.
set(body "")
foreach(key 2p 3p 4p 5p)
  file(READ "${MAP_DIR}/smallworld-${key}.json" text)
  string(APPEND body "  if (key == \"${key}\") return R\"swref_map(${text})swref_map\";\n")
endforeach()
file(WRITE "${OUT}.tmp" "// Generated from data/maps by cmake/embed_maps.cmake. Do not edit.\n#include \"engine/builtin_maps.h\"\n\nnamespace swref::engine {\n\nconst char* BuiltinMapText(std::string_view key) {\n${body}  return nullptr;\n}\n\n}  // namespace swref::engine\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
