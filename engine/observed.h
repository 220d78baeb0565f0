// An observed board: what a camera reports lying in every region, as the rules engine takes it (the engine may
// not include vision/). One entry per region of the map: the race and its side, the token count (exact, or a
// lower bound when a neat stack hides it from above), the pieces, the lost tribe, and whether the reading is
// uncertain (low confidence: the players must confirm it before it counts).
//
// The JSON form is the Observation format of ARCHITECTURE.md ("regions": [{id, race, decline, tokens,
// tokens_certain, pieces {id: n}, lost_tribe, confidence}]), so the app layer can hand a vision observation
// (or a dataset's truth line) to the engine unchanged.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/board.h"
#include "engine/components.h"
#include "engine/result.h"

namespace swref::engine {

// A reading with a confidence below this is uncertain (the same threshold as vision::kUncertainBelow).
inline constexpr double kLowConfidence = 0.55;

struct ObservedRegion {
  std::optional<Race> race;     // the race whose tokens lie here, or none
  bool decline = false;         // the tokens show their in-decline side
  int tokens = 0;               // the race's tokens; a lower bound when !tokens_certain
  bool tokens_certain = true;   // false: a stack seen from above, `tokens` is the best lower bound
  int mountain = 0, troll_lair = 0, fortress = 0, encampments = 0, hole = 0, hero = 0, dragon = 0;
  int lost_tribe = 0;
  bool uncertain = false;       // a low-confidence reading: a question to the players, never an answer

  int Count(Piece piece) const;  // kLostTribe gives lost_tribe
  bool operator==(const ObservedRegion&) const = default;
};

struct ObservedBoard {
  std::vector<ObservedRegion> regions;  // every region of the map, by id
  int size() const { return static_cast<int>(regions.size()); }
};

// A perfect reading of an engine board (tests, the table script): certain counts, full confidence.
ObservedRegion ObserveRegion(const RegionState& state);
ObservedBoard ObserveBoard(const Board& board);
// The inverse: the region as a board holds what `seen` shows (its count taken as it is), the race owned by `owner`.
RegionState StateOf(const ObservedRegion& seen, int owner);

// Whether `state` reads as `seen`: same race, side, pieces and lost tribe; the same count, or a count at least
// the lower bound when the reading is not certain.
bool ReadsAs(const RegionState& state, const ObservedRegion& seen);

// The Observation JSON: either a whole observation object (its "status", when present, must be "ok") or its
// "regions" array. Every region of a map of `region_count` regions must be listed exactly once. `where` names
// the input in errors ("observation.regions[3].tokens: expected an integer >= 0").
Result<ObservedBoard> ParseObservedBoard(const nlohmann::json& doc, int region_count, const std::string& where);
// A player's correction of one region's reading: `fields` has any of the Observation region's fields ("race" (null:
// none), "decline", "tokens", "lost_tribe", "pieces" {piece id: count}); those given replace the reading's, the count
// becomes certain and the reading confident. Clearing the race clears its tokens unless "tokens" is given. Errors
// name `where` and the field.
Result<ObservedRegion> CorrectRegion(const ObservedRegion& before, const nlohmann::json& fields, const std::string& where);
// The "regions" array, in the Observation format (confidence 1, or 0.5 for an uncertain reading).
nlohmann::ordered_json ToJson(const ObservedBoard& board);

}  // namespace swref::engine
