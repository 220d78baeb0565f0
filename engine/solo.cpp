// SoloPlay's fixed facts: the opposition per board, the lost-tribe setups of rule 3, the ratings.
#include "engine/solo.h"

#include <algorithm>
#include <array>
#include <set>

namespace swref::engine {

int OppositionCount(int players) {
  switch (players) {
    case 2:
      return 3;
    case 3:
      return 5;
    case 4:
      return 6;
    default:
      return 8;
  }
}

namespace {

constexpr std::array<Terrain, 5> kLandTerrains = {Terrain::kFarmland, Terrain::kForest, Terrain::kHill, Terrain::kMountain,
                                                  Terrain::kSwamp};

// Why `regions` does not come from `base` by moving at most one lost tribe per land type ("" if it does).
std::string MovedFrom(const Map& map, const std::set<int>& base, const std::set<int>& regions) {
  for (Terrain t : kLandTerrains) {
    int in_base = 0, in_regions = 0, moved = 0;
    for (const Region& r : map.regions) {
      if (r.terrain != t) continue;
      in_base += base.count(r.id);
      in_regions += regions.count(r.id);
      moved += regions.count(r.id) && !base.count(r.id);
    }
    const std::string type(ToString(t));
    if (in_base != in_regions)
      return std::to_string(in_regions) + " on " + type + " regions where it has " + std::to_string(in_base) +
             " (a lost tribe moves only to a region of the same land type)";
    if (moved > 1) return std::to_string(moved) + " " + type + " lost tribes moved (at most 1 per land type)";
  }
  return "";
}

// Why `regions` is not the alternate setup (rule 3a: every lost tribe on a region without the symbol, then at most
// one per land type moved to another region of its type, rule 3b).
std::string AlternateProblem(const Map& map, const std::set<int>& regions) {
  for (Terrain t : kLandTerrains) {
    int on_symbol = 0, spare = 0;
    for (const Region& r : map.regions) {
      if (r.terrain != t) continue;
      on_symbol += regions.count(r.id) && r.lost_tribe;
      spare += !regions.count(r.id) && !r.lost_tribe;
    }
    const std::string type(ToString(t));
    if (on_symbol > 1)
      return std::to_string(on_symbol) + " " + type + " lost tribes stand on regions with the symbol (at most 1 moved back per land type)";
    if (on_symbol == 1 && spare == 0)
      return "a " + type + " lost tribe stands on a region with the symbol, but no " + type +
             " region without it is free to have come from";
  }
  return "";
}

}  // namespace

std::string CheckLostTribes(const Map& map, const std::vector<int>& regions) {
  const std::string place = "solo.lost_tribes";
  std::set<int> chosen, printed;
  for (const Region& r : map.regions)
    if (r.lost_tribe) printed.insert(r.id);
  for (size_t i = 0; i < regions.size(); ++i) {
    const std::string where = place + "[" + std::to_string(i) + "]";
    const int id = regions[i];
    if (!map.Valid(id)) return where + ": " + std::to_string(id) + " is not a region of map " + map.key;
    const Region& r = map.regions[id];
    if (r.IsWater())
      return where + ": region " + std::to_string(id) + " is a " + std::string(ToString(r.terrain)) + "; lost tribes stand on land";
    if (r.HasMountain() && map.players != 2)
      return where + ": region " + std::to_string(id) + " is a mountain; lost tribes stand on mountains only on the 2-player board";
    if (!chosen.insert(id).second) return where + ": region " + std::to_string(id) + " is listed twice";
  }
  if (chosen.size() != printed.size())
    return place + ": " + std::to_string(chosen.size()) + " regions listed; map " + map.key + " has " + std::to_string(printed.size()) +
           " lost tribes";
  const std::string from_printed = MovedFrom(map, printed, chosen);
  if (from_printed.empty()) return "";
  const std::string alternate = AlternateProblem(map, chosen);
  if (alternate.empty()) return "";
  return place + ": not a setup of rule 3: from the printed setup, " + from_printed + "; as the alternate setup, " + alternate;
}

std::string_view ToString(Need need) {
  switch (need) {
    case Need::kNone:
      return "none";
    case Need::kMet:
      return "met";
    case Need::kUnmet:
      return "unmet";
  }
  return "none";
}

std::string_view ToString(Rating rating) {
  switch (rating) {
    case Rating::kGameLoss:
      return "Game Loss";
    case Rating::kEasyVictory:
      return "Easy Victory";
    case Rating::kGameVictory:
      return "Game Victory";
    case Rating::kMajorVictory:
      return "Major Victory";
    case Rating::kCompleteVictory:
      return "Complete Victory";
    case Rating::kMasterVictory:
      return "Master Victory";
  }
  return "Game Loss";
}

Rating RatingFor(int score, bool every_terrain) {
  if (!every_terrain || score <= 60) return Rating::kGameLoss;
  if (score <= 64) return Rating::kEasyVictory;
  if (score <= 68) return Rating::kGameVictory;
  if (score <= 72) return Rating::kMajorVictory;
  if (score <= 76) return Rating::kCompleteVictory;
  return Rating::kMasterVictory;
}

int SoloState::OppositionTotal() const {
  int total = kSoloVacantPenalty * vacant;
  for (const OppositionRace& o : opposition)
    if (o.placed) total += o.total();
  return total;
}

const OppositionRace* SoloState::Opposing(Race race) const {
  for (const OppositionRace& o : opposition)
    if (o.race == race) return &o;
  return nullptr;
}

OppositionRace* SoloState::Opposing(Race race) {
  for (OppositionRace& o : opposition)
    if (o.race == race) return &o;
  return nullptr;
}

}  // namespace swref::engine
