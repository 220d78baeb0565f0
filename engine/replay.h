// Replaying a game record through the rules, and the `swref play` output document (docs/record.md).
#pragma once

#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/game.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::engine {

struct ReplayResult {
  std::vector<Verdict> steps;   // one per action of the record
  Game game;                    // the state after the last action
  std::vector<bool> house_ruled = {};  // one per action (or empty): applied as a house ruling against the verdict in `steps`
};

// Errors only for a record whose game cannot start (map, players); a rejected action is a step, not an error.
Result<ReplayResult> Replay(const Record& record, const std::filesystem::path& base_dir);

// The `swref play` document: steps, turns (coins per turn), final (round, winner, coins, hands, regions), with
// its keys in the documented order.
nlohmann::ordered_json PlayDocument(const ReplayResult& replay);
// The `final.regions` part alone: every region that holds anything.
nlohmann::ordered_json RegionsDocument(const Game& game);
// The `final.solo` part of a SoloPlay game (docs/solo.md): phase, the opposition's score, the player's combos,
// the races in decline, the tokens kept, the end items, the score and the rating. Only for a solo game.
nlohmann::ordered_json SoloDocument(const Game& game);
// A solo game's result, the part of SoloDocument a referee reports and records at the end: {"end" (the end items
// with their total, null until finished), "opposition" (its pooled total), "score", "rating" (null until finished),
// "terrains_missing"}.
nlohmann::ordered_json SoloResult(const Game& game);

}  // namespace swref::engine
