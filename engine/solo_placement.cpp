// SoloPlay setup: an opposition race's conquests while it is placed (Game Setup 6.c). They follow the normal rules
// (cost, first conquest at the edge, the reinforcement die, Berserk, the dragon; Sorcerers convert a lost tribe)
// with the limitations of 6.c.iii.1: (a) an empty region before one with a lost tribe, (b) no attack on another
// opposition race, (c) the last attack on the region needing the lowest roll. A conquest that meets a placement
// requirement is free of (a) and (c). Every conquest is kept as a SetupEvent for the requirements.
#include <algorithm>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

SetupEvent Game::SetupEventFor(Race race, int region, With with) const {
  const RegionState& r = board_[region];
  SetupEvent e;
  e.region = region;
  e.lost_tribe = r.lost_tribe > 0;
  e.mountain = r.mountain > 0;
  e.dragon = with == With::kDragon;
  e.sorcery = with == With::kSorcery;
  e.giants = with == With::kNone && ConquestCost(race, region).giants > 0;
  e.first = RegionsHeld(race) == 0;
  for (int n : map_->neighbours[region]) e.next_to_own = e.next_to_own || board_[n].race == static_cast<int>(race);
  return e;
}

// Tokens the race is short of taking `region` with its hand (0: it can take it outright). Berserk: after `die`.
int Game::SetupShortfall(Race race, int region, int die) const {
  int cost = ConquestCost(race, region).total;
  if (die >= 0 && civ(race).power == Power::kBerserk) cost = std::max(cost - die, 1);
  return std::max(0, cost - civ(race).hand);
}

int Game::SetupReachable() const {
  const Race race = static_cast<Race>(SoloRace());
  const CivState& c = civ(race);
  if (c.hand == 0) return -1;
  const bool dragon = c.power == Power::kDragonMaster && !turn_.dragon_used;
  for (int i = 0; i < map_->size(); ++i) {
    if (board_[i].HasRace() || CheckTarget(static_cast<int>(race), i, false, nullptr) != Code::kOk) continue;
    if (dragon || SetupShortfall(race, i, -1) <= kMaxDieShortfall) return i;
  }
  return -1;
}

// Limitations (a) and (c) for a normal or dragon conquest of `a.region` (b is checked before).
Code Game::CheckSetupLimits(Race race, const Action& a, std::string* why) const {
  const CivState& c = civ(race);
  const OppositionRace& o = solo_.opposition[solo_.placing];
  const bool dragon = a.with == With::kDragon;
  const bool berserk = c.power == Power::kBerserk && !dragon;
  const bool attempt = a.die >= 0 && !berserk && !dragon;
  const int roll = berserk ? a.die : -1;
  const int short_of = dragon ? 0 : SetupShortfall(race, a.region, roll);
  if (MeetsRequirement(o.race, o.power, o.events, SetupEventFor(race, a.region, a.with), *map_)) return Code::kOk;
  const bool first = RegionsHeld(race) == 0;
  int lowest = -1, lowest_short = 1 << 20;
  for (int i = 0; i < map_->size(); ++i) {
    const RegionState& r = board_[i];
    if (i == a.region || r.HasRace() || CheckTarget(static_cast<int>(race), i, false, nullptr) != Code::kOk) continue;
    const int s = dragon ? 0 : SetupShortfall(race, i, roll);
    if (!first && board_[a.region].lost_tribe && !r.lost_tribe && s <= short_of)
      return Reject(why, Code::kBadTarget, [&] {
        return RegionName(a.region) + " holds a lost tribe, but " + RegionName(i) + " is empty and can be taken" +
               (s > 0 ? " with a roll of " + std::to_string(s) : std::string("")) +
               ": setup races take empty regions first (SoloPlay setup 6.c.iii.1.a)";
      });
    if (s < lowest_short) lowest = i, lowest_short = s;
  }
  if (attempt && lowest >= 0 && lowest_short < short_of)
    return Reject(why, Code::kBadTarget, [&] {
      return "the last attack goes to the region needing the lowest roll: " + RegionName(lowest) + " needs " +
             std::to_string(lowest_short) + ", " + RegionName(a.region) + " needs " + std::to_string(short_of) +
             " (SoloPlay setup 6.c.iii.1.c)";
    });
  return Code::kOk;
}

Code Game::CheckSetupConquer(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  const int race = SoloRace();
  const CivState& c = civs_[race];
  if (a.with == With::kGhouls) return Reject(why, Code::kNoActiveRace, [] { return "no Ghouls are in decline during the setup"; });
  if (!a.from.empty() || a.hero >= 0 || a.has_retreat)
    return Reject(why, Code::kBadPlacement,
                  [] { return "an opposition race conquers from its hand: from, hero and retreat belong to the player's turns"; });
  if (turn_.conquests_over) return Reject(why, Code::kWrongPhase, [&] { return "the conquests of the " + RaceName(race) + " are over"; });
  const RegionState& r = board_[a.region];
  if (r.HasRace() && r.race != race)
    return Reject(why, Code::kBadTarget, [&] {
      return RegionName(a.region) + " holds the " + RaceName(r.race) +
             ": the races placed at setup never attack each other (SoloPlay setup 6.c.iii.1.b)";
    });
  const bool dragon = a.with == With::kDragon;
  if (dragon && (c.power != Power::kDragonMaster || turn_.dragon_used))
    return Reject(why, Code::kPowerNotAvailable, [&] {
      return c.power != Power::kDragonMaster ? RaceName(race) + " are not Dragon Masters" : std::string("the dragon has already attacked");
    });
  if (Code code = CheckTarget(race, a.region, false, why); code != Code::kOk) return code;
  if (Code code = CheckHandTokens(race, a, c.hand, false, why); code != Code::kOk) return code;
  return CheckSetupLimits(static_cast<Race>(race), a, why);
}

// Sorcerers at setup convert a lost tribe next to them with a token from the tray (6.a.iv), once.
Code Game::CheckSetupSorcery(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  const int race = SoloRace();
  if (race != static_cast<int>(Race::kSorcerers))
    return Reject(why, Code::kPowerNotAvailable, [&] { return "only Sorcerers convert; the race being placed is the " + RaceName(race); });
  if (turn_.conquests_over) return Reject(why, Code::kWrongPhase, [] { return "the conquests of the Sorcerers are over"; });
  const RegionState& r = board_[a.region];
  if (!r.lost_tribe)
    return Reject(why, Code::kBadTarget,
                  [&] { return "at setup the Sorcerers convert a lost tribe; " + RegionName(a.region) + " holds none"; });
  bool adjacent = false;
  for (int n : map_->neighbours[a.region]) adjacent = adjacent || board_[n].race == race;
  if (!adjacent && civs_[race].power == Power::kUnderworld && map_->regions[a.region].cavern)
    for (int i = 0; i < map_->size(); ++i) adjacent = adjacent || (board_[i].race == race && map_->regions[i].cavern);
  if (!adjacent) return Reject(why, Code::kNotAdjacent, [&] { return RegionName(a.region) + " does not touch any Sorcerer region"; });
  if (turn_.sorcery_used) return Reject(why, Code::kPowerNotAvailable, [] { return "the Sorcerers have already converted a lost tribe"; });
  if (TokensInTray(Race::kSorcerers) < 1)
    return Reject(why, Code::kPowerNotAvailable, [] { return "no Sorcerer token is left in the tray"; });
  return Code::kOk;
}

void Game::DoSetupConquer(const Action& a) {
  const Race race = static_cast<Race>(SoloRace());
  CivState& c = civ_mut(race);
  OppositionRace& o = solo_.opposition[solo_.placing];
  RegionState& r = board_[a.region];
  const SetupEvent event = SetupEventFor(race, a.region, a.with);
  if (a.with == With::kSorcery) {
    turn_.sorcery_used = 1;
    ++turn_.nonempty_conquered;
    r.lost_tribe = 0;
    r.owner = kOpposition, r.race = static_cast<int8_t>(race), r.tokens = 1;
    o.events.push_back(event);
    return;
  }
  const HandOutcome outcome = ResolveHandConquest(a, race, false);
  if (outcome.ends) turn_.conquests_over = true;
  if (!outcome.success) return;  // the tokens stay in hand for the balancing
  if (r.NonEmpty()) ++turn_.nonempty_conquered;
  c.hand -= outcome.placed;
  r.lost_tribe = 0;
  r.ClearOccupant();
  r.owner = kOpposition, r.race = static_cast<int8_t>(race), r.tokens = static_cast<uint8_t>(outcome.placed);
  if (race == Race::kHalflings && c.holes_granted < 2) r.hole = 1, ++c.holes_granted;
  if (race == Race::kTrolls && PiecesOnMap(Piece::kTrollLair) < Info(Piece::kTrollLair).in_box) r.troll_lair = 1;
  if (a.with == With::kDragon) {
    for (RegionState& other : board_) other.dragon = 0;
    r.dragon = 1;
    turn_.dragon_used = true;
  }
  o.events.push_back(event);
}

}  // namespace swref::engine
