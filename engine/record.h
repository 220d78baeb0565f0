// The game record (`smallworld-record/1`, docs/record.md): parsing with precise errors that name the field
// ("record.actions[12].region: expected an integer, got \"x\""), writing, and starting a game from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/action.h"
#include "engine/components.h"
#include "engine/game.h"
#include "engine/result.h"

namespace swref::engine {

inline constexpr const char* kRecordFormat = "smallworld-record/1";
inline constexpr size_t kMaxRecordActions = 100000;  // a real game has a few hundred

struct Record {
  std::string map = "2p";
  std::vector<std::string> players;
  std::string variant = "standard";
  uint64_t seed = 0;
  std::vector<Race> races;        // the named top of the race stack
  std::vector<Power> powers;
  std::vector<Action> actions;
  SoloOptions solo;               // variant "solo": the record's `solo` object (docs/solo.md)
  nlohmann::json extra = nlohmann::json::object();  // unknown top-level fields, kept as they were
};

Result<Record> ParseRecord(const nlohmann::json& doc);
Result<Record> ReadRecordFile(const std::filesystem::path& path);
// One action; `place` names it in errors ("record.actions[3]"). `solo`: the fields and actions of SoloPlay are
// allowed (docs/solo.md); in a standard record they are unknown.
Result<Action> ParseAction(const nlohmann::json& doc, const std::vector<std::string>& players, const std::string& place, bool solo = false);

nlohmann::json ToJson(const Record& record);
nlohmann::json ToJson(const Action& action, const std::vector<std::string>& players);

// The game a record starts: its map (built-in or a file relative to base_dir), players, stacks and seed.
Result<Game> StartGame(const Record& record, const std::filesystem::path& base_dir);

}  // namespace swref::engine
