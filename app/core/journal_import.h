// A finished record journaled after the fact, as the referee would have written it while the game was played
// (`swref demo --journal`, tests). For each action: the off-board events the players tell first (a pick, a
// decline, an ally, an end of turn, the die face before its conquest), then the action. A conquest the rules
// reject becomes a flag taken back (it leaves `actions`: the game went on without it); a rejected conquest
// marked `"ruling": "house"` that can stand becomes a flag accepted as a house ruling; any other action is
// committed with its verdict. Such a journal proves only that nothing changed after it was written.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "app/core/journal.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::core {

engine::Result<Journal> JournalRecord(const engine::Record& record, const std::filesystem::path& out, const nlohmann::json& start,
                                      JournalOptions options = {});

}  // namespace swref::core
