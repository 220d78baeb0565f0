// The Observation (docs/architecture.md): what the observer reports for one image, region by region, and the
// ground-truth format of every synthetic dataset (one JSON line per image in truth.jsonl).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/board.h"
#include "engine/result.h"

namespace swref::vision {

enum class Status { kOk, kNoBoard, kMotion, kBadImage };

// A region observed with a confidence below this is uncertain: the referee asks the players to confirm it.
inline constexpr double kUncertainBelow = 0.55;
const char* ToString(Status status);

struct RegionObservation {
  int id = 0;
  std::optional<std::string> race;     // race id ("ratmen"), or none for an empty region
  bool decline = false;
  int tokens = 0;                      // the race's tokens; a lower bound when !tokens_certain
  bool tokens_certain = true;          // false when a neat stack hides the count from above
  std::map<std::string, int> pieces;   // piece id -> count (mountain, troll_lair, fortress, encampment, hole, hero, dragon)
  int lost_tribe = 0;
  double confidence = 1;               // below kUncertainBelow the reading is a question, not an answer

  bool operator==(const RegionObservation&) const = default;
};

struct Observation {
  std::string image;
  Status status = Status::kOk;
  std::optional<double> ms;            // time the observer took; absent in ground truth
  std::vector<RegionObservation> regions;  // every region of the map, by id
};

// The truth of an engine board: every region, its race side, token count, pieces and lost tribe.
// `uncertain[r]` (optional, may be empty) marks regions whose count a stack hides.
Observation FromBoard(const engine::Board& board, const std::vector<bool>& uncertain = {});

nlohmann::ordered_json ToJson(const Observation& observation);
// Parses one line; `where` names it in errors ("truth.jsonl:12").
engine::Result<Observation> ParseObservation(const nlohmann::json& doc, const std::string& where);

}  // namespace swref::vision
