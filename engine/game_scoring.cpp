// Scoring at the end of every turn (RULINGS 28, 20): 1 coin per region of the player's races, plus the active
// race's race and power bonuses; in decline only Dwarves' mines still score a bonus.
#include "engine/game.h"

namespace swref::engine {

CoinBreakdown Game::Score(int player) const {
  CoinBreakdown coins;
  const int active = players_[player].active;
  const CivState* a = active >= 0 ? &civs_[active] : nullptr;
  int active_regions = 0, farmland = 0, magic = 0, forest = 0, hill = 0, swamp = 0, fortresses = 0;
  for (int i = 0; i < map_->size(); ++i) {
    const RegionState& r = board_[i];
    if (r.owner != player || r.tokens == 0) continue;
    ++coins.regions;
    const engine::Region& where = map_->regions[i];
    const bool dwarves = r.race == static_cast<int>(Race::kDwarves);  // mines score even in decline
    if (dwarves && where.mine) ++coins.race;
    if (r.race != active) continue;
    ++active_regions;
    farmland += where.terrain == Terrain::kFarmland;
    forest += where.terrain == Terrain::kForest;
    hill += where.terrain == Terrain::kHill;
    swamp += where.terrain == Terrain::kSwamp;
    magic += where.magic;
    fortresses += r.fortress;
  }
  if (a == nullptr) return coins;
  switch (static_cast<Race>(active)) {
    case Race::kHumans: coins.race += farmland; break;
    case Race::kWizards: coins.race += magic; break;
    case Race::kOrcs: coins.race += turn_.nonempty_conquered; break;
    default: break;
  }
  switch (a->power) {
    case Power::kAlchemist: coins.power = 2; break;
    case Power::kForest: coins.power = forest; break;
    case Power::kHill: coins.power = hill; break;
    case Power::kSwamp: coins.power = swamp; break;
    case Power::kMerchant: coins.power = active_regions; break;
    case Power::kPillaging: coins.power = turn_.nonempty_conquered; break;
    case Power::kFortified: coins.power = fortresses; break;
    case Power::kWealthy: coins.power = a->first_turn ? 7 : 0; break;
    default: break;
  }
  return coins;
}

}  // namespace swref::engine
