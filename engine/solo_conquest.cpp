// SoloPlay: the player's conquests (Playing the game, 2). A race's first turn conquers from the hand as in the
// normal game; after that only tokens of neighbouring regions attack (`from`), and a Heroic race's hero may join
// them. Overcome opposition tokens are kept by the player for the end scoring, except those that retreat at once
// into the race's neighbouring regions (2-, 3- and 4-player boards, 2.b.i); overcome lairs, fortresses and
// encampments are kept too. A failed attempt leaves the attackers in hand to be returned next to the region.
#include <algorithm>
#include <set>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

bool Game::SoloNeighbours(Race race, int from, int to) const {
  if (map_->Adjacent(from, to)) return true;
  const CivState& c = civ(race);
  if (c.decline) return false;
  if (c.power == Power::kUnderworld && map_->regions[from].cavern && map_->regions[to].cavern) return true;
  return c.power == Power::kFlying && !map_->regions[to].IsWater();
}

// The regions next to `region` that hold the same opposition race: where its tokens retreat (none on 5p).
std::vector<int> Game::RetreatRegions(int region) const {
  std::vector<int> out;
  const RegionState& r = board_[region];
  if (map_->players == 5 || !r.HasRace() || r.owner != kOpposition) return out;
  for (int n : map_->neighbours[region])
    if (board_[n].race == r.race) out.push_back(n);
  return out;
}

Code Game::CheckRetreat(const Action& a, std::string* why) const {
  const RegionState& r = board_[a.region];
  const std::vector<int> places = RetreatRegions(a.region);
  const int retreating = r.HasRace() && r.owner == kOpposition ? std::max(0, r.tokens - 2) : 0;
  const int moving = std::min(retreating, static_cast<int>(places.size()));
  const bool choice = moving < static_cast<int>(places.size()) && moving > 0;
  std::set<int> given(a.retreat.begin(), a.retreat.end());
  auto list = [&] {
    std::string s;
    for (int p : places) s += (s.empty() ? "" : ", ") + std::to_string(p);
    return s;
  };
  if (given.size() != a.retreat.size()) return Reject(why, Code::kBadPlacement, [] { return "a retreat region is listed twice"; });
  for (int g : a.retreat)
    if (std::find(places.begin(), places.end(), g) == places.end())
      return Reject(why, Code::kBadPlacement, [&] {
        return "no opposition token can retreat into " + RegionName(g) + (places.empty() ? "" : " (only into " + list() + ")");
      });
  if (choice && static_cast<int>(given.size()) != moving)
    return Reject(why, Code::kBadPlacement, [&] {
      return std::to_string(moving) + " " + RaceName(r.race) + (moving == 1 ? " token retreats" : " tokens retreat") + " into regions " +
             list() + ", one each: name " + (moving == 1 ? "it" : "them") + " with retreat";
    });
  if (!choice && a.has_retreat && static_cast<int>(given.size()) != moving)
    return Reject(why, Code::kBadPlacement,
                  [&] { return "the retreat is " + (moving == 0 ? std::string("empty") : "into every region " + list()); });
  return Code::kOk;
}

// Attacking tokens from neighbouring regions (2.a.i): each source is held by the race and neighbours the target.
Code Game::CheckSoloSources(const Action& a, Race race, int* attackers, std::string* why) const {
  const std::string name = RaceName(static_cast<int>(race));
  if (a.from.empty())
    return Reject(why, Code::kNotEnoughTokens,
                  [&] { return "the " + name + " hold no token in hand: name the attacking tokens of neighbouring regions with from"; });
  if (a.tokens >= 0)
    return Reject(why, Code::kBadPlacement, [] { return "every token named in from enters the region: tokens is not used with from"; });
  std::set<int> seen;
  int sum = 0;
  for (const Placement& p : a.from) {
    if (!map_->Valid(p.region))
      return Reject(why, Code::kUnknownRegion, [&] { return RegionName(p.region) + " is not on map " + map_->key; });
    const RegionState& s = board_[p.region];
    if (s.race != static_cast<int>(race) || !seen.insert(p.region).second || p.count < 1)
      return Reject(why, Code::kBadPlacement, [&] {
        return "from: " + RegionName(p.region) + " is listed once, is held by the " + name + " and gives at least 1 token";
      });
    if (p.count > s.tokens)
      return Reject(why, Code::kNotEnoughTokens, [&] {
        return RegionName(p.region) + " holds " + std::to_string(s.tokens) + " tokens; " + std::to_string(p.count) + " taken";
      });
    if (!SoloNeighbours(race, p.region, a.region))
      return Reject(why, Code::kNotAdjacent, [&] {
        return RegionName(p.region) + " does not neighbour " + RegionName(a.region) + ": in SoloPlay only neighbouring tokens attack";
      });
    sum += p.count;
  }
  if (a.hero >= 0) {
    const CivState& c = civ(race);
    if (c.decline || c.power != Power::kHeroic || c.first_turn)
      return Reject(why, Code::kPowerNotAvailable, [&] { return "a hero attacks only for an active Heroic race after its first turn"; });
    if (!map_->Valid(a.hero) || board_[a.hero].race != static_cast<int>(race) || !board_[a.hero].hero)
      return Reject(why, Code::kBadPlacement, [&] { return RegionName(a.hero) + " holds no hero of the " + name; });
    if (!SoloNeighbours(race, a.hero, a.region))
      return Reject(why, Code::kNotAdjacent,
                    [&] { return "the hero in " + RegionName(a.hero) + " does not neighbour " + RegionName(a.region); });
  }
  *attackers = sum + (a.hero >= 0 ? 1 : 0);
  return Code::kOk;
}

// A race conquers from its hand on its first turn (the normal rules) and while it holds tokens in hand (it lost
// every region); otherwise from neighbouring regions.
bool Game::FromHand(Race race) const {
  const CivState& c = civ(race);
  return c.hand > 0 || (c.first_turn && !c.decline);
}

Code Game::CheckSoloConquer(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  const bool ghouls = a.with == With::kGhouls;
  const int race = ghouls ? DeclinedGhouls(0) : players_[0].active;
  if (race < 0)
    return Reject(why, Code::kNoActiveRace, [&] { return ghouls ? "no Ghouls are in decline" : "no active race: pick a combo first"; });
  if (ghouls ? (turn_.active_started || turn_.ghouls_over) : turn_.conquests_over)
    return Reject(why, Code::kWrongPhase, [&] {
      return ghouls ? "in-decline Ghouls conquer first, before the active race"
                    : "the conquests of this turn are over (after a reinforcement roll, the redeployment or an erosion)";
    });
  const CivState& c = civs_[race];
  const bool dragon = a.with == With::kDragon;
  if (dragon && (c.power != Power::kDragonMaster || turn_.dragon_used))
    return Reject(why, Code::kPowerNotAvailable, [&] {
      return c.power != Power::kDragonMaster ? RaceName(race) + " are not Dragon Masters" : "the dragon has already attacked this turn";
    });
  const RegionState& r = board_[a.region];
  if (ghouls && r.HasRace() && r.owner == 0)
    return Reject(why, Code::kBadTarget, [&] {
      return RegionName(a.region) + " is the player's own: in SoloPlay the in-decline Ghouls attack only the opposition and empty regions";
    });
  if (Code code = CheckTarget(race, a.region, ghouls, why); code != Code::kOk) return code;
  if (FromHand(static_cast<Race>(race))) {  // a race's first turn, or tokens in hand: the normal conquest
    if (!a.from.empty() || a.hero >= 0)
      return Reject(why, Code::kBadPlacement, [&] {
        return "the " + RaceName(race) + " attack from the hand " +
               (c.first_turn ? "on their first turn" : "while they hold tokens in it") + " (from and hero are for the turns after)";
      });
    if (Code code = CheckHandTokens(race, a, c.hand, ghouls, why); code != Code::kOk) return code;
    return CheckRetreat(a, why);
  }
  int attackers = 0;
  if (Code code = CheckSoloSources(a, static_cast<Race>(race), &attackers, why); code != Code::kOk) return code;
  const CostBreakdown cost = ConquestCost(static_cast<Race>(race), a.region, ghouls);
  const int needed = dragon ? 1 : cost.total;
  const bool berserk = !ghouls && c.power == Power::kBerserk && !dragon;
  auto needs = [&] {
    return RegionName(a.region) + " needs " + std::to_string(needed) + ": " + (dragon ? "1 with the dragon" : cost.Describe());
  };
  if (a.die >= 0 && !berserk && needed - attackers > kMaxDieShortfall)
    return Reject(why, Code::kTooFarShort, [&] {
      return needs() + "; " + std::to_string(attackers) + " attacking are " + std::to_string(needed - attackers) +
             " short, and the die gives at most 3";
    });
  if (a.die < 0 && attackers < needed)
    return Reject(why, Code::kNotEnoughTokens,
                  [&] { return needs() + "; " + std::to_string(attackers) + " attack from neighbouring regions"; });
  return CheckRetreat(a, why);
}

Code Game::CheckSoloSorcery(const Action& a, std::string* why) const {
  if (!map_->Valid(a.region))
    return Reject(why, Code::kUnknownRegion, [&] { return RegionName(a.region) + " is not on map " + map_->key; });
  const int race = players_[0].active;
  if (race < 0) return Reject(why, Code::kNoActiveRace, [] { return "no active race"; });
  if (race != static_cast<int>(Race::kSorcerers))
    return Reject(why, Code::kPowerNotAvailable,
                  [&] { return "only active Sorcerers convert tokens; the active race is the " + RaceName(race); });
  if (turn_.conquests_over) return Reject(why, Code::kWrongPhase, [] { return "the conquests of this turn are over"; });
  const RegionState& r = board_[a.region];
  if (r.race == race) return Reject(why, Code::kOwnRegion, [&] { return RegionName(a.region) + " is already held by the Sorcerers"; });
  if (!r.HasRace() || r.owner != kOpposition || r.tokens != 1 || r.encampments > 0)
    return Reject(why, Code::kBadTarget, [&] {
      const std::string s = "Sorcerers convert a region whose only token is an opposition race's; " + RegionName(a.region);
      if (!r.HasRace()) return s + (r.lost_tribe ? " holds a lost tribe" : " holds no race token");
      if (r.owner != kOpposition) return s + " is the player's own";
      if (r.encampments) return s + " is protected by an encampment";
      return s + " holds " + std::to_string(r.tokens) + " tokens";
    });
  if (r.Immune()) return Reject(why, Code::kImmuneRegion, [&] { return RegionName(a.region) + " is immune to racial powers"; });
  const engine::Region& where = map_->regions[a.region];
  if (where.IsWater() && civs_[race].power != Power::kSeafaring)
    return Reject(why, Code::kWaterNotAllowed, [&] { return RegionName(a.region) + " is water: only a Seafaring race may enter it"; });
  bool adjacent = false;
  for (int n : map_->neighbours[a.region]) adjacent = adjacent || board_[n].race == race;
  if (!adjacent && civs_[race].power == Power::kUnderworld && where.cavern)
    for (int i = 0; i < map_->size(); ++i) adjacent = adjacent || (board_[i].race == race && map_->regions[i].cavern);
  if (!adjacent) return Reject(why, Code::kNotAdjacent, [&] { return RegionName(a.region) + " does not touch any Sorcerer region"; });
  if (turn_.sorcery_used)
    return Reject(why, Code::kPowerNotAvailable, [] { return "the Sorcerers have already converted a token this turn"; });
  if (TokensInTray(Race::kSorcerers) < 1)
    return Reject(why, Code::kPowerNotAvailable, [] { return "no Sorcerer token is left in the tray"; });
  return Code::kOk;
}

// `race` takes `region` with `tokens`; the defenders are kept, retreat, or (the player's own) are discarded.
void Game::TakeSolo(int region, Race race, int tokens, bool ghouls, const std::vector<int>& retreat) {
  RegionState& r = board_[region];
  int own_declined = -1;
  if (r.HasRace() && r.owner == kOpposition) {
    const std::vector<int> places = RetreatRegions(region);
    int left = r.tokens - std::min(2, static_cast<int>(r.tokens));
    const std::vector<int>& into = left >= static_cast<int>(places.size()) ? places : retreat;
    for (int p : into) ++board_[p].tokens, --left;
    solo_.Opposing(r.race_id())->kept += r.tokens - static_cast<int>(into.size());
    solo_.defences_overcome += r.troll_lair + r.fortress + r.encampments;
  } else if (r.lost_tribe) {
    ++solo_.kept_lost_tribes;
  } else if (r.HasRace()) {
    own_declined = r.race;  // the player's own in-decline token is discarded
  }
  r.lost_tribe = 0;
  r.ClearOccupant();
  r.owner = 0, r.race = static_cast<int8_t>(race), r.decline = ghouls, r.tokens = static_cast<uint8_t>(tokens);
  if (own_declined >= 0 && CountRegions(static_cast<Race>(own_declined)) == 0) SoloLeave(static_cast<Race>(own_declined));
}

void Game::DoSoloConquer(const Action& a) {
  const bool ghouls = a.with == With::kGhouls;
  const Race race = static_cast<Race>(ghouls ? DeclinedGhouls(0) : players_[0].active);
  CivState& c = civ_mut(race);
  RegionState& r = board_[a.region];
  if (!ghouls) turn_.active_started = turn_.active_conquered = true;
  const bool empty = !r.HasRace() && !r.lost_tribe, nonempty = r.NonEmpty();
  if (a.with == With::kSorcery) {
    turn_.sorcery_used = 1;
    ++turn_.nonempty_conquered;
    ++solo_.Opposing(r.race_id())->kept;
    solo_.defences_overcome += r.troll_lair + r.fortress;
    r.ClearOccupant();
    r.owner = 0, r.race = static_cast<int8_t>(race), r.tokens = 1;
    return;
  }
  const bool dragon = a.with == With::kDragon;
  int placed = 0;
  bool success = true, ends = false;
  if (FromHand(race)) {
    const HandOutcome outcome = ResolveHandConquest(a, race, ghouls);
    placed = outcome.placed, success = outcome.success, ends = outcome.ends;
  } else {
    for (const Placement& p : a.from) placed += p.count;
    const int attackers = placed + (a.hero >= 0 ? 1 : 0);
    const int needed = dragon ? 1 : ConquestCost(race, a.region, ghouls).total;
    const bool berserk = !ghouls && c.power == Power::kBerserk && !dragon;
    if (a.die >= 0 && !berserk) success = attackers + a.die >= needed, ends = true;
    if (a.die >= 0 && berserk) success = attackers >= std::max(needed - a.die, 1), ends = !success;
    if (!success && berserk) {  // the roll fell short: nobody moves, the conquests end
      turn_.conquests_over = true;
      return;
    }
    for (const Placement& p : a.from) {  // the attackers leave their regions; an emptied region is vacated
      RegionState& s = board_[p.region];
      s.tokens = static_cast<uint8_t>(s.tokens - p.count);
      if (s.tokens == 0) s.ClearOccupant();
    }
    c.hand += placed;
    if (success && a.hero >= 0) board_[a.hero].hero = 0;
  }
  if (ends) (ghouls ? turn_.ghouls_over : turn_.conquests_over) = true;
  if (!success) {
    (ghouls ? solo_.turn.ghouls_failed_region : solo_.turn.failed_region) = a.region;
    return;
  }
  if (!ghouls && nonempty) ++turn_.nonempty_conquered;
  if (!ghouls && empty) solo_.turn.took_empty = true;
  c.hand -= placed;
  TakeSolo(a.region, race, placed, ghouls, a.retreat);
  if (a.hero >= 0) r.hero = 1;  // the hero moves with the attack
  if (ghouls) return;
  if (race == Race::kHalflings && c.holes_granted < 2) r.hole = 1, ++c.holes_granted;
  if (race == Race::kTrolls && PiecesOnMap(Piece::kTrollLair) < Info(Piece::kTrollLair).in_box) r.troll_lair = 1;
  if (dragon) {
    for (RegionState& other : board_) other.dragon = 0;
    r.dragon = 1;
    turn_.dragon_used = true;
  }
}

}  // namespace swref::engine
