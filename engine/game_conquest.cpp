// Conquest: its cost, who may be attacked from where, the reinforcement die, Berserk, the Dragon, Sorcerers'
// conversion, in-decline Ghouls, losses and withdrawals, abandoning a region, readying the troops.
#include <algorithm>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

std::string CostBreakdown::Describe() const {
  std::string s = std::to_string(base);
  auto add = [&s](int n, const char* what, char sign = '+') {
    if (n > 0) s += std::string(" ") + sign + " " + std::to_string(n) + " " + what;
  };
  add(mountain, "mountain");
  add(troll_lair, "troll's lair");
  add(fortress, "fortress");
  add(encampments, encampments == 1 ? "encampment" : "encampments");
  add(lost_tribe, "lost tribe");
  add(defenders, defenders == 1 ? "defending token" : "defending tokens");
  add(commando, "Commando", '-');
  add(mounted, "Mounted", '-');
  add(underworld, "Underworld", '-');
  add(tritons, "Tritons", '-');
  add(giants, "Giants", '-');
  return s;
}

CostBreakdown Game::ConquestCost(Race race, int region, bool ghouls) const {
  const RegionState& r = board_[region];
  const engine::Region& where = map_->regions[region];
  const CivState& c = civ(race);
  CostBreakdown cost;
  cost.mountain = r.mountain;
  cost.troll_lair = r.troll_lair;
  cost.fortress = r.fortress;
  cost.encampments = r.encampments;
  cost.lost_tribe = r.lost_tribe;
  const bool own_declined = r.owner == c.owner && r.decline;  // the player's own in-decline token costs nothing extra
  if (r.HasRace() && r.race != static_cast<int>(race) && !own_declined) cost.defenders = r.tokens;
  int sum = cost.base + cost.mountain + cost.troll_lair + cost.fortress + cost.encampments + cost.lost_tribe + cost.defenders;
  if (!ghouls && !c.decline) {  // discounts belong to the active race and its power
    const bool land = !where.IsWater();
    cost.commando = c.power == Power::kCommando;
    cost.mounted = c.power == Power::kMounted && (where.terrain == Terrain::kHill || where.terrain == Terrain::kFarmland);
    cost.underworld = c.power == Power::kUnderworld && where.cavern;
    cost.tritons = race == Race::kTritons && land && where.coastal;
    if (race == Race::kGiants) {
      for (int n : map_->neighbours[region])
        if (board_[n].race == static_cast<int>(race) && map_->regions[n].HasMountain()) cost.giants = 1;
    }
    sum -= cost.commando + cost.mounted + cost.underworld + cost.tritons + cost.giants;
  }
  cost.total = std::max(sum, 1);
  return cost;
}

int Game::HandAfterReady(Race race) const {
  const CivState& c = civ(race);
  return c.hand + c.aside + spare_[static_cast<int>(race)];
}

void Game::Ready(Race race) {
  CivState& c = civ_mut(race);
  for (RegionState& r : board_) {
    if (r.race == static_cast<int>(race) && r.tokens > 1) {
      c.hand += r.tokens - 1;
      r.tokens = 1;
    }
  }
  c.hand += c.aside;
  c.aside = 0;
}

// Who may conquer `region` from where: own region, immunity, water, peace, first conquest, adjacency.
Code Game::CheckTarget(int conqueror, int region, bool ghouls, std::string* why) const {
  const Race race = static_cast<Race>(conqueror);
  const CivState& c = civs_[conqueror];
  const RegionState& r = board_[region];
  const engine::Region& where = map_->regions[region];
  const int me = c.owner;
  if (r.race == conqueror)
    return Reject(why, Code::kOwnRegion, [&] { return RegionName(region) + " is already held by the " + RaceName(conqueror); });
  if (r.Immune()) {
    return Reject(why, Code::kImmuneRegion, [&] {
      const char* piece = r.hero ? "a hero" : r.dragon ? "the dragon" : "a hole-in-the-ground";
      return RegionName(region) + " is immune: it holds " + piece;
    });
  }
  const bool powers = !ghouls;  // in-decline Ghouls have lost their badge
  if (where.IsWater() && !(powers && c.power == Power::kSeafaring))
    return Reject(why, Code::kWaterNotAllowed, [&] {
      return RegionName(region) + " is a " + std::string(ToString(where.terrain)) + ": only a Seafaring race may enter it";
    });
  if (r.HasRace() && r.owner != me && !r.decline && !ghouls && r.owner < player_count() && players_[r.owner].peace_with == me)
    return Reject(why, Code::kPeaceTreaty, [&] {
      return PlayerName(r.owner) + " (Diplomat) is at peace with " + PlayerName(me) + ": " + RegionName(region) + " cannot be attacked until " +
             PlayerName(r.owner) + "'s next turn";
    });
  const bool flying = powers && c.power == Power::kFlying;
  if (RegionsHeld(race) == 0) {  // first conquest (RULINGS 5)
    const bool anywhere = (powers && race == Race::kHalflings) || flying;
    if (!anywhere && !where.edge_entry)
      return Reject(why, Code::kNotEdgeEntry, [&] {
        return "the " + RaceName(conqueror) + " hold no region, so this is a first conquest: " + RegionName(region) +
               " neither touches the edge of the board nor a sea that does";
      });
    return Code::kOk;
  }
  if (flying) return Code::kOk;
  for (int n : map_->neighbours[region])
    if (board_[n].race == conqueror) return Code::kOk;
  if (powers && c.power == Power::kUnderworld && where.cavern) {
    for (int i = 0; i < map_->size(); ++i)
      if (board_[i].race == conqueror && map_->regions[i].cavern) return Code::kOk;
  }
  return Reject(why, Code::kNotAdjacent, [&] { return RegionName(region) + " does not touch any " + RaceName(conqueror) + " region"; });
}

Code Game::CheckConquer(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  if (turn_.declined) return Reject(why, Code::kWrongPhase, [] { return "no conquest on a decline turn: it ends after scoring"; });
  const bool ghouls = a.with == With::kGhouls;
  int race = players_[a.player].active;
  if (ghouls) {
    race = DeclinedGhouls(a.player);
    if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no Ghouls in decline"; });
    if (turn_.active_started || turn_.ghouls_over)
      return Reject(why, Code::kWrongPhase, [] { return "in-decline Ghouls conquer first, before the active race, and only until their conquests end"; });
  } else {
    if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no active race: pick a combo first"; });
    if (turn_.conquests_over)
      return Reject(why, Code::kWrongPhase, [] { return "the conquests of this turn are over (after a reinforcement roll, a redeploy, a withdrawal or an ally)"; });
  }
  const CivState& c = civs_[race];
  const bool dragon = a.with == With::kDragon;
  if (dragon && (c.power != Power::kDragonMaster || turn_.dragon_used))
    return Reject(why, Code::kPowerNotAvailable, [&] {
      return c.power != Power::kDragonMaster ? RaceName(race) + " are not Dragon Masters" : std::string("the dragon has already attacked this turn");
    });
  if (Code code = CheckTarget(race, a.region, ghouls, why); code != Code::kOk) return code;
  const bool readied = ghouls ? turn_.ghouls_readied : turn_.readied;
  return CheckHandTokens(race, a, readied ? c.hand : HandAfterReady(static_cast<Race>(race)), ghouls, why);
}

Code Game::CheckHandTokens(int race, const Action& a, int hand, bool ghouls, std::string* why) const {
  const CivState& c = civs_[race];
  const bool dragon = a.with == With::kDragon;
  const CostBreakdown cost = ConquestCost(static_cast<Race>(race), a.region, ghouls);
  const int needed = dragon ? 1 : cost.total;
  auto needs = [&] {
    return RegionName(a.region) + " needs " + std::to_string(needed) + (needed == 1 ? " token" : " tokens") + ": " + (dragon ? "1 with the dragon" : cost.Describe());
  };
  if (hand == 0) return Reject(why, Code::kNotEnoughTokens, [&] { return needs() + "; no token in hand"; });
  const bool berserk = !ghouls && c.power == Power::kBerserk && !dragon;
  if (a.die >= 0 && !berserk) {  // the final reinforcement attempt (RULINGS 1)
    if (needed - hand > kMaxDieShortfall)
      return Reject(why, Code::kTooFarShort, [&] {
        return needs() + "; " + std::to_string(hand) + " in hand is " + std::to_string(needed - hand) + " short, and the die gives at most 3";
      });
    if (a.tokens >= 0 && a.tokens != hand)
      return Reject(why, Code::kBadPlacement, [&] { return "a reinforcement attempt commits all " + std::to_string(hand) + " tokens in hand"; });
    return Code::kOk;
  }
  const int effective = berserk && a.die >= 0 ? std::max(needed - a.die, 1) : needed;
  if (a.tokens >= 0 && a.tokens < effective)
    return Reject(why, Code::kNotEnoughTokens, [&] {
      return needs() + (effective != needed ? ", " + std::to_string(effective) + " after the Berserk roll of " + std::to_string(a.die) : "") + "; " +
             std::to_string(a.tokens) + " placed";
    });
  if (a.tokens > hand)
    return Reject(why, Code::kNotEnoughTokens, [&] { return std::to_string(a.tokens) + " tokens placed, but only " + std::to_string(hand) + " in hand"; });
  if (berserk && a.die >= 0) return Code::kOk;  // a Berserk roll that falls short ends the conquests (RULINGS 2)
  if (effective > hand) return Reject(why, Code::kNotEnoughTokens, [&] { return needs() + "; only " + std::to_string(hand) + " in hand"; });
  return Code::kOk;
}

Code Game::CheckSorcery(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  if (turn_.declined) return Reject(why, Code::kWrongPhase, [] { return "no conquest on a decline turn: it ends after scoring"; });
  const int race = players_[a.player].active;
  if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no active race"; });
  if (race != static_cast<int>(Race::kSorcerers))
    return Reject(why, Code::kPowerNotAvailable, [&] { return "only active Sorcerers convert tokens; " + PlayerName(a.player) + " plays " + RaceName(race); });
  if (turn_.conquests_over) return Reject(why, Code::kWrongPhase, [] { return "the conquests of this turn are over"; });
  const RegionState& r = board_[a.region];
  if (r.race == race) return Reject(why, Code::kOwnRegion, [&] { return RegionName(a.region) + " is already held by the Sorcerers"; });
  if (!r.HasRace() || r.owner == a.player || r.decline || r.tokens != 1 || r.encampments > 0)
    return Reject(why, Code::kBadTarget, [&] {
      std::string s = "Sorcerers convert a region whose only race token is another player's active token; " + RegionName(a.region);
      if (!r.HasRace()) return s + " holds no race token";
      if (r.owner == a.player) return s + " is " + PlayerName(a.player) + "'s own";
      if (r.decline) return s + " holds " + RaceName(r.race) + " in decline";
      if (r.encampments) return s + " is protected by an encampment";
      return s + " holds " + std::to_string(r.tokens) + " " + RaceName(r.race) + " tokens";
    });
  if (r.Immune()) return Reject(why, Code::kImmuneRegion, [&] { return RegionName(a.region) + " is immune to racial powers"; });
  const engine::Region& where = map_->regions[a.region];
  const CivState& c = civs_[race];
  if (where.IsWater() && c.power != Power::kSeafaring)
    return Reject(why, Code::kWaterNotAllowed, [&] { return RegionName(a.region) + " is water: only a Seafaring race may enter it"; });
  if (players_[r.owner].peace_with == a.player)
    return Reject(why, Code::kPeaceTreaty, [&] { return PlayerName(r.owner) + " (Diplomat) is at peace with " + PlayerName(a.player) + " until its next turn"; });
  bool adjacent = false;
  for (int n : map_->neighbours[a.region]) adjacent = adjacent || board_[n].race == race;
  if (!adjacent && c.power == Power::kUnderworld && where.cavern)
    for (int i = 0; i < map_->size(); ++i) adjacent = adjacent || (board_[i].race == race && map_->regions[i].cavern);
  if (!adjacent)
    return Reject(why, Code::kNotAdjacent, [&] { return RegionName(a.region) + " does not touch any Sorcerer region (a conversion needs adjacency, Flying or not)"; });
  if (turn_.sorcery_used & (1u << r.owner))
    return Reject(why, Code::kPowerNotAvailable, [&] { return "the Sorcerers have already converted a token of " + PlayerName(r.owner) + " this turn"; });
  if (TokensInTray(Race::kSorcerers) < 1)
    return Reject(why, Code::kPowerNotAvailable, [] { return "no Sorcerer token is left in the tray"; });
  return Code::kOk;
}

// Defenders lose and withdraw (RULINGS 25), the race's pieces there go, then `race` moves in.
void Game::TakeRegion(int region, Race race, int tokens, bool decline) {
  RegionState& r = board_[region];
  const int defender = r.HasRace() ? r.race : -1;
  if (defender >= 0) {
    CivState& d = civs_[defender];
    const int loss = (defender == static_cast<int>(Race::kElves) && !d.decline) ? 0 : 1;  // active Elves lose none
    d.hand += r.tokens - loss;
    turn_.withdrawn |= static_cast<uint8_t>(1u << r.owner);
  }
  r.lost_tribe = 0;
  r.ClearOccupant();
  const CivState& c = civ(race);
  r.owner = c.owner;
  r.race = static_cast<int8_t>(race);
  r.decline = decline;
  r.tokens = static_cast<uint8_t>(tokens);
  if (defender >= 0 && civs_[defender].decline && civs_[defender].hand == 0 && CountRegions(static_cast<Race>(defender)) == 0)
    Vanish(static_cast<Race>(defender));
}

void Game::DoConquer(const Action& a) {
  const bool ghouls = a.with == With::kGhouls;
  const Race race = static_cast<Race>(ghouls ? DeclinedGhouls(a.player) : players_[a.player].active);
  CivState& c = civ_mut(race);
  if (ghouls && !turn_.ghouls_readied) Ready(race), turn_.ghouls_readied = true;
  if (!ghouls && !turn_.readied) Ready(race), turn_.readied = true;
  if (!ghouls) turn_.active_started = turn_.active_conquered = true;

  RegionState& r = board_[a.region];
  const int defender_owner = r.HasRace() ? r.owner : kNobody;
  const bool defender_active = r.HasRace() && !r.decline;
  const bool nonempty = r.NonEmpty();
  if (a.with == With::kSorcery) {
    turn_.sorcery_used |= static_cast<uint8_t>(1u << defender_owner);
    turn_.attacked_active |= static_cast<uint8_t>(1u << defender_owner);
    ++turn_.nonempty_conquered;
    r.ClearOccupant();  // the converted token goes back to its tray; a new Sorcerer comes from the tray
    r.owner = c.owner, r.race = static_cast<int8_t>(race), r.tokens = 1;
    return;
  }
  const bool dragon = a.with == With::kDragon;
  const HandOutcome outcome = ResolveHandConquest(a, race, ghouls);
  const int placed = outcome.placed;
  if (outcome.ends) (ghouls ? turn_.ghouls_over : turn_.conquests_over) = true;
  if (!outcome.success) return;  // the tokens stay in hand for the redeploy

  if (!ghouls && defender_owner != kNobody && defender_owner != a.player && defender_active)
    turn_.attacked_active |= static_cast<uint8_t>(1u << defender_owner);
  if (!ghouls && nonempty) ++turn_.nonempty_conquered;
  c.hand -= placed;
  TakeRegion(a.region, race, placed, ghouls);
  if (ghouls) return;
  if (race == Race::kHalflings && c.holes_granted < 2) r.hole = 1, ++c.holes_granted;
  if (race == Race::kTrolls && PiecesOnMap(Piece::kTrollLair) < Info(Piece::kTrollLair).in_box) r.troll_lair = 1;
  if (dragon) {
    for (RegionState& other : board_) other.dragon = 0;
    r.dragon = 1;
    turn_.dragon_used = true;
  }
}

Game::HandOutcome Game::ResolveHandConquest(const Action& a, Race race, bool ghouls) const {
  const CivState& c = civ(race);
  const bool dragon = a.with == With::kDragon;
  const int needed = dragon ? 1 : ConquestCost(race, a.region, ghouls).total;
  const bool berserk = !ghouls && c.power == Power::kBerserk && !dragon;
  HandOutcome out{a.tokens >= 0 ? a.tokens : needed, true, false};
  if (a.die >= 0 && !berserk) {
    out.placed = c.hand;
    out.success = c.hand + a.die >= needed;
    out.ends = true;
  } else if (berserk && a.die >= 0) {
    const int effective = std::max(needed - a.die, 1);
    if (a.tokens < 0) out.placed = effective;
    out.success = c.hand >= effective;
    out.ends = !out.success;
  }
  return out;
}

Code Game::CheckAbandon(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  if (turn_.declined) return Reject(why, Code::kWrongPhase, [] { return "a decline turn ends after scoring"; });
  const int race = players_[a.player].active;
  if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return PlayerName(a.player) + " has no active race"; });
  if (turn_.active_conquered || turn_.conquests_over)
    return Reject(why, Code::kWrongPhase, [] { return "regions are abandoned while readying the troops, before the turn's first conquest"; });
  if (board_[a.region].race != race)
    return Reject(why, Code::kBadTarget, [&] { return RegionName(a.region) + " is not held by the " + RaceName(race); });
  return Code::kOk;
}

void Game::DoAbandon(const Action& a) {
  const Race race = static_cast<Race>(players_[a.player].active);
  if (!turn_.readied) Ready(race), turn_.readied = true;
  turn_.active_started = true;
  RegionState& r = board_[a.region];
  civ_mut(race).hand += r.tokens;
  r.ClearOccupant();
}

}  // namespace swref::engine
