// `swref play RECORD`: replay a game record through the rules and build the output document
// (docs/record.md). Shared by the CLI and the GUI's record viewer.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "engine/replay.h"
#include "engine/result.h"

namespace swref::core {

// The replay of a record file; an error (naming the file and field) for a malformed record or one whose game
// cannot start. Map paths in the record are relative to the record's folder.
engine::Result<engine::ReplayResult> ReplayRecordFile(const std::filesystem::path& path);

}  // namespace swref::core
