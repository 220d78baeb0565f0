// SoloPlay scoring: one opposition race by the normal rules after its placement (6.d.i), the end-of-game items
// (Ending the Game, 1.a-f) with the terrain requirement, and the variant's consistency check.
#include <algorithm>

#include "engine/game.h"

namespace swref::engine {

// The normal turn score of `race` as the active race of its owner (regions, race and power bonuses).
CoinBreakdown Game::ScoreRace(Race race) const {
  const CivState& c = civ(race);
  CoinBreakdown coins;
  int farmland = 0, magic = 0, mines = 0, forest = 0, hill = 0, swamp = 0, fortresses = 0;
  for (int i = 0; i < map_->size(); ++i) {
    if (board_[i].race != static_cast<int>(race)) continue;
    const engine::Region& where = map_->regions[i];
    ++coins.regions;
    farmland += where.terrain == Terrain::kFarmland;
    forest += where.terrain == Terrain::kForest;
    hill += where.terrain == Terrain::kHill;
    swamp += where.terrain == Terrain::kSwamp;
    magic += where.magic;
    mines += where.mine;
    fortresses += board_[i].fortress;
  }
  switch (race) {
    case Race::kHumans:
      coins.race = farmland;
      break;
    case Race::kWizards:
      coins.race = magic;
      break;
    case Race::kDwarves:
      coins.race = mines;
      break;
    case Race::kOrcs:
      coins.race = turn_.nonempty_conquered;
      break;
    default:
      break;
  }
  switch (c.power) {
    case Power::kAlchemist:
      coins.power = 2;
      break;
    case Power::kForest:
      coins.power = forest;
      break;
    case Power::kHill:
      coins.power = hill;
      break;
    case Power::kSwamp:
      coins.power = swamp;
      break;
    case Power::kMerchant:
      coins.power = coins.regions;
      break;
    case Power::kPillaging:
      coins.power = turn_.nonempty_conquered;
      break;
    case Power::kFortified:
      coins.power = fortresses;
      break;
    case Power::kWealthy:
      coins.power = c.first_turn ? 7 : 0;
      break;
    default:
      break;
  }
  return coins;
}

void Game::ScoreSoloEnd() {
  SoloEnd& end = solo_.end;
  const int players = map_->players;
  int held_defences = 0, opposition_tokens = 0, sets = 1 << 20;
  bool unconquered = solo_.kept_lost_tribes == 0;
  std::array<bool, 7> terrains{};
  for (int i = 0; i < map_->size(); ++i) {
    const RegionState& r = board_[i];
    end.lost_tribes += 2 * r.lost_tribe;
    if (r.HasRace() && r.owner == 0) {
      held_defences += r.troll_lair + r.fortress + r.encampments;
      terrains[static_cast<int>(map_->regions[i].terrain)] = true;
    }
    if (r.HasRace() && r.owner == kOpposition && !r.Immune() && !map_->regions[i].IsWater()) opposition_tokens += r.tokens;
  }
  for (const OppositionRace& o : solo_.opposition) {
    if (o.unconquerable) continue;  // completely protected: no part of the awards
    bool open = false;
    for (const RegionState& r : board_) open = open || (r.race == static_cast<int>(o.race) && !r.Immune());
    if (!open && players >= 3) end.eliminated += players;
    sets = std::min(sets, o.kept);
    unconquered = unconquered || o.kept == 0;
  }
  sets = std::min(sets, solo_.kept_lost_tribes);
  if (players >= 4) end.sets = (players == 4 ? 6 : 8) * sets;
  end.defences_overcome = solo_.defences_overcome;
  end.defences_held = held_defences / 2;
  if (players == 2) {
    end.unconquered = unconquered ? -5 : 0;
    end.tokens_left = -opposition_tokens;
  }
  for (Terrain t : {Terrain::kFarmland, Terrain::kForest, Terrain::kHill, Terrain::kMountain, Terrain::kSwamp})
    if (!terrains[static_cast<int>(t)]) solo_.terrains_missing.push_back(t);
  players_[0].coins += end.total();
  solo_.ended = true;
}

std::string Game::CheckSoloConsistency() const {
  for (int race = 0; race < kRaceCount; ++race) {
    const CivState& c = civs_[race];
    const bool listed = std::count(solo_.declined.begin(), solo_.declined.end(), static_cast<Race>(race)) > 0;
    const std::string name = RaceName(race) + ": ";
    if (c.owner == kOpposition && c.decline) return name + "an opposition race in decline";
    if (c.owner == 0 && c.decline != listed) return name + "in decline but not in the decline order, or the other way round";
    if (listed && held_[race] == 0) return name + "in the decline order without a region";
    if (c.owner == 0 && !c.decline && players_[0].active != race) return name + "the player's race is neither active nor in decline";
  }
  if (solo_.declined.size() > kSoloCombos - 1) return "more than 4 races in decline";
  const std::pair<Piece, int> limits[] = {{Piece::kTrollLair, 10}, {Piece::kFortress, 6}, {Piece::kEncampment, 5},
                                          {Piece::kHole, 2},       {Piece::kHero, 2},     {Piece::kDragon, 1}};
  for (auto [piece, limit] : limits)
    if (PiecesOnMap(piece) > limit) return "too many " + std::string(Info(piece).id) + " pieces on the map";
  return "";
}

}  // namespace swref::engine
