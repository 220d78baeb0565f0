// Reading JSON that comes from outside (a record, a map, a layout, a setup, a camera file, a token model, one line
// of a JSON-lines file) with bounded cost: the file's size is checked before anything is read, and the nesting
// depth of the text is checked before the parser runs (a parsed value is copied and printed recursively, so a text
// of a million nested brackets would otherwise overflow the stack). The limits are in docs/architecture.md,
// "Limits". Errors name the file and the limit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/result.h"

namespace swref::engine {

inline constexpr int kMaxJsonDepth = 64;                             // arrays and objects inside each other
inline constexpr std::uintmax_t kMaxJsonFileBytes = 1u << 20;        // 1 MiB: maps, layouts, setups, camera files
inline constexpr std::uintmax_t kMaxRecordFileBytes = 8u << 20;      // 8 MiB: a game record (a real game: ~50 KB)
inline constexpr std::uintmax_t kMaxTokenModelBytes = 8u << 20;      // 8 MiB: an enrolled token model (36 kinds: ~1.5 MB)
inline constexpr std::uintmax_t kMaxJsonLinesBytes = 64u << 20;      // 64 MiB: a JSON-lines file (observations)
inline constexpr std::size_t kMaxJsonLineBytes = 4u << 20;           // 4 MiB: one line of it

// "" when `text` nests arrays and objects at most kMaxJsonDepth deep (brackets inside strings do not count),
// else the error for `where`.
std::string CheckJsonDepth(std::string_view text, const std::string& where);

// Parses `text`: the document, or "<where>: not valid JSON" / the depth error.
Result<nlohmann::json> ParseJsonText(std::string_view text, const std::string& where);

// Reads and parses a file of at most `max_bytes`. `what` names the kind of file in the errors:
// "<path>: cannot open the <what>", "<path>: the <what> is N bytes, more than the limit of M bytes",
// "<path>: not valid JSON", "<path>: JSON nested deeper than 64 levels".
Result<nlohmann::json> ReadJsonFile(const std::filesystem::path& path, std::uintmax_t max_bytes, const std::string& what);

// "PATH: cannot open the WHAT", and why when the file system tells: no such file, a folder, not readable.
std::string CannotOpen(const std::filesystem::path& path, const std::string& what);
// "" when `in` (opened on `path`) can be read; else CannotOpen. A folder opens, but reads nothing: it is refused.
std::string OpenProblem(const std::ifstream& in, const std::filesystem::path& path, const std::string& what);

// The whole file as bytes, at most `max_bytes` (the same errors as ReadJsonFile, without the JSON ones).
Result<std::string> ReadFileBytes(const std::filesystem::path& path, std::uintmax_t max_bytes, const std::string& what);

}  // namespace swref::engine
