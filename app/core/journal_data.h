// The `data` of the journal entries that carry game facts, built from the engine's state. The journal writes
// them and the verifier rebuilds them from its own replay and compares (docs/record.md, "The journal").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/core/game_timeline.h"
#include "engine/game.h"

namespace swref::core {

// {"index", "action", "verdict"}: the action (its record form) kept at `index` of record.actions.
nlohmann::json ActionData(int index, const nlohmann::json& action, const TimelineStep& step);

// {"action", "region", "code", "why"}: an illegal conquest (in SoloPlay also a redeploy or an erosion) the rules
// rejected with `verdict`.
nlohmann::json FlagData(const nlohmann::json& action, int region, const engine::Verdict& verdict);

// The region a flag is about: a conquest's; a SoloPlay redeploy's move target (else its first region given); an
// erosion's first region; -1 when none.
int FlagRegion(const engine::Action& action);

// {"turn", "round", "player", "coins": {"regions", "race", "power", "total"}, "totals": {player: coins}}:
// game.scores()[turn] and every player's coins now.
nlohmann::json CoinsData(const engine::Game& game, int turn);

// {"reason", "coins": {player: coins}, "winners": [names], "solo"?, "note"?}; reason "finished" or "stopped"; "solo" in a
// SoloPlay game: engine::SoloResult (the end items, the opposition's total, the score and the rating).
nlohmann::json EndData(const engine::Game& game, const std::string& note);

// Whether two verdicts (StepJson form) agree on what a verifier can hold a record to: ok, ruling and code.
// The sentence (`why`) is left out: its wording may improve between versions of swref.
bool SameVerdict(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace swref::core
