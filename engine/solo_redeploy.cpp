// SoloPlay: the player's single redeployment action (Playing the game, 3), the pieces a redeploy places, and the
// erosion of the races in decline (4).
#include <algorithm>
#include <set>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {

Code Game::CheckPieces(Race race, const Action& a, const std::vector<int>& after, std::string* why) const {
  const CivState& c = civ(race);
  const std::string name = RaceName(static_cast<int>(race));
  auto kept = [&](int region) { return map_->Valid(region) && after[region] > 0; };
  if (a.has_encampments) {
    if (c.decline || c.power != Power::kBivouacking)
      return Reject(why, Code::kPowerNotAvailable, [] { return "encampments belong to an active Bivouacking race"; });
    int camps = 0;
    for (const Placement& p : a.encampments) {
      if (!kept(p.region))
        return Reject(why, Code::kBadPlacement,
                      [&] { return "encampment in " + RegionName(p.region) + ": not a region the " + name + " keep"; });
      camps += p.count;
    }
    if (camps > Info(Piece::kEncampment).in_box)
      return Reject(why, Code::kBadPlacement, [&] { return std::to_string(camps) + " encampments placed; there are 5"; });
  }
  if (a.fortress >= 0) {
    if (c.decline || c.power != Power::kFortified)
      return Reject(why, Code::kPowerNotAvailable, [] { return "fortresses belong to an active Fortified race"; });
    if (turn_.fortress_placed) return Reject(why, Code::kPowerNotAvailable, [] { return "one fortress per turn"; });
    if (!kept(a.fortress))
      return Reject(why, Code::kBadPlacement,
                    [&] { return "fortress in " + RegionName(a.fortress) + ": not a region the " + name + " keep"; });
    if (board_[a.fortress].fortress)
      return Reject(why, Code::kBadPlacement, [&] { return RegionName(a.fortress) + " already has a fortress"; });
    if (PiecesOnMap(Piece::kFortress) >= Info(Piece::kFortress).in_box)
      return Reject(why, Code::kPowerNotAvailable, [] { return "all 6 fortresses are on the map"; });
  }
  if (!a.heroes.empty()) {
    if (c.decline || c.power != Power::kHeroic)
      return Reject(why, Code::kPowerNotAvailable, [] { return "heroes belong to an active Heroic race"; });
    if (a.heroes.size() > 2 || (a.heroes.size() == 2 && a.heroes[0] == a.heroes[1]))
      return Reject(why, Code::kBadPlacement, [] { return "the 2 heroes go to 2 different regions"; });
    for (int h : a.heroes)
      if (!kept(h))
        return Reject(why, Code::kBadPlacement, [&] { return "hero in " + RegionName(h) + ": not a region the " + name + " keep"; });
    // Both heroes are placed, in 2 different regions, unless the race keeps a single region (RULINGS 10).
    const auto keeps = std::count_if(after.begin(), after.end(), [](int n) { return n > 0; });
    if (a.heroes.size() == 1 && keeps >= 2)
      return Reject(why, Code::kBadPlacement, [&] { return "both heroes are placed, in 2 different regions: the " + name + " keep " + std::to_string(keeps) + " regions"; });
  }
  return Code::kOk;
}

void Game::PlacePieces(Race race, const Action& a) {
  if (a.has_encampments) {
    for (RegionState& r : board_)
      if (r.race == static_cast<int>(race)) r.encampments = 0;
    for (const Placement& p : a.encampments) board_[p.region].encampments = static_cast<uint8_t>(board_[p.region].encampments + p.count);
  }
  if (a.fortress >= 0) board_[a.fortress].fortress = 1, turn_.fortress_placed = true;
  if (!a.heroes.empty()) {
    for (RegionState& r : board_)
      if (r.race == static_cast<int>(race)) r.hero = 0;
    for (int h : a.heroes) board_[h].hero = 1;
  }
}

// Tokens in hand the race must place before the turn ends: the hand, Skeletons' new tokens until the redeploy
// adds them, less the Amazons' 4 conquest-only tokens that leave at the end of their first turn.
int Game::SoloHandToPlace(Race race) const {
  const CivState& c = civ(race);
  int n = c.hand;
  if (!c.decline && !turn_.redeployed) n += SoloSkeletonBonus(race);
  if (!c.decline && race == Race::kAmazons && c.first_turn) n -= std::min(kAmazonConquestOnlyTokens, c.hand);
  return n;
}

Code Game::CheckMove(Race race, const Move& m, bool into_hole, std::vector<int>* after, std::string* why) const {
  const std::string name = RaceName(static_cast<int>(race));
  if (!map_->Valid(m.from) || !map_->Valid(m.to))
    return Reject(why, Code::kUnknownRegion,
                  [&] { return RegionName(map_->Valid(m.from) ? m.to : m.from) + " is not on map " + map_->key; });
  if (m.from == m.to || (*after)[m.from] == 0 || (*after)[m.to] == 0)
    return Reject(why, Code::kBadPlacement, [&] {
      return "a move goes from one region of the " + name + " to another (" + RegionName(m.from) + " to " + RegionName(m.to) +
             "); taking a region is a conquest";
    });
  if (m.tokens < 1 || m.tokens > (*after)[m.from])
    return Reject(why, Code::kNotEnoughTokens, [&] {
      return RegionName(m.from) + " holds " + std::to_string((*after)[m.from]) + " tokens; a move takes 1 to all of them, not " +
             std::to_string(m.tokens);
    });
  if (into_hole) {
    if (race != Race::kHalflings || civ(race).decline)
      return Reject(why, Code::kPowerNotAvailable, [] { return "only active Halflings move tokens into their holes"; });
    if (!board_[m.to].hole) return Reject(why, Code::kBadPlacement, [&] { return RegionName(m.to) + " has no hole-in-the-ground"; });
  } else if (!SoloNeighbours(race, m.from, m.to)) {
    return Reject(why, Code::kNotAdjacent, [&] {
      return RegionName(m.to) + " does not neighbour " + RegionName(m.from) + ": the move goes to one neighbouring region";
    });
  }
  (*after)[m.from] -= m.tokens;
  (*after)[m.to] += m.tokens;
  return Code::kOk;
}

Code Game::CheckSoloRedeploy(const Action& a, std::string* why) const {
  const bool ghouls = a.with == With::kGhouls;
  const int race = ghouls ? DeclinedGhouls(0) : players_[0].active;
  if (race < 0) return Reject(why, Code::kNoActiveRace, [&] { return ghouls ? "no Ghouls are in decline" : "no active race"; });
  if (solo_.turn.eroding)
    return Reject(why, Code::kWrongPhase, [] { return "the redeployment comes before the erosion of the races in decline"; });
  if (!a.placement.empty())
    return Reject(why, Code::kBadPlacement, [] {
      return "a SoloPlay redeployment is one move (move), the Halflings' moves into their holes (holes) and the tokens in hand (add); "
             "tokens is the setup's balancing";
    });
  const bool pieces = a.has_encampments || a.fortress >= 0 || !a.heroes.empty();
  if (ghouls && (a.move.from >= 0 || !a.hole_moves.empty() || pieces))
    return Reject(why, Code::kBadPlacement, [] { return "the in-decline Ghouls only place their tokens in hand (add)"; });
  if (ghouls ? (turn_.ghouls_redeployed && civs_[race].hand == 0) : turn_.redeployed)
    return Reject(why, Code::kWrongPhase, [] { return "one redeployment per turn"; });
  std::vector<int> after(map_->size(), 0);
  for (int i = 0; i < map_->size(); ++i) after[i] = board_[i].race == race ? board_[i].tokens : 0;
  if (a.move.from >= 0)
    if (Code code = CheckMove(static_cast<Race>(race), a.move, false, &after, why); code != Code::kOk) return code;
  for (const Move& m : a.hole_moves)
    if (Code code = CheckMove(static_cast<Race>(race), m, true, &after, why); code != Code::kOk) return code;
  const int failed = ghouls ? solo_.turn.ghouls_failed_region : solo_.turn.failed_region;
  bool next_to_failed = false;
  for (int i = 0; i < map_->size(); ++i)
    next_to_failed = next_to_failed || (after[i] > 0 && failed >= 0 && SoloNeighbours(static_cast<Race>(race), i, failed));
  const bool any_held = std::any_of(after.begin(), after.end(), [](int n) { return n > 0; });
  const int expected = any_held ? SoloHandToPlace(static_cast<Race>(race)) : 0;
  std::set<int> seen;
  int sum = 0;
  for (const Placement& p : a.add) {
    if (!map_->Valid(p.region) || after[p.region] == 0 || !seen.insert(p.region).second)
      return Reject(why, Code::kBadPlacement,
                    [&] { return "add: " + RegionName(p.region) + " is not a region of the " + RaceName(race) + " (or is listed twice)"; });
    if (next_to_failed && p.count > 0 && !SoloNeighbours(static_cast<Race>(race), p.region, failed))
      return Reject(why, Code::kBadPlacement, [&] {
        return "the tokens of the failed attack on " + RegionName(failed) + " return to regions next to it; " + RegionName(p.region) +
               " is not";
      });
    sum += p.count;
  }
  if (sum != expected)
    return Reject(why, Code::kBadPlacement, [&] {
      return "the " + RaceName(race) + " have " + std::to_string(expected) + " tokens in hand to place; add places " + std::to_string(sum);
    });
  for (const Placement& p : a.add) after[p.region] += p.count;
  return CheckPieces(static_cast<Race>(race), a, after, why);
}

void Game::DoSoloRedeploy(const Action& a) {
  const bool ghouls = a.with == With::kGhouls;
  const Race race = static_cast<Race>(ghouls ? DeclinedGhouls(0) : players_[0].active);
  CivState& c = civ_mut(race);
  std::vector<Move> moves = a.hole_moves;
  if (a.move.from >= 0) moves.insert(moves.begin(), a.move);
  for (const Move& m : moves) {
    RegionState& from = board_[m.from];
    from.tokens = static_cast<uint8_t>(from.tokens - m.tokens);
    if (from.tokens == 0) from.ClearOccupant();  // vacated by choice: its pieces go
    board_[m.to].tokens = static_cast<uint8_t>(board_[m.to].tokens + m.tokens);
  }
  if (!ghouls) c.hand += SoloSkeletonBonus(race);
  for (const Placement& p : a.add) {
    board_[p.region].tokens = static_cast<uint8_t>(board_[p.region].tokens + p.count);
    c.hand -= p.count;
  }
  if (ghouls) {
    turn_.ghouls_redeployed = turn_.ghouls_over = true;
    return;
  }
  PlacePieces(race, a);
  turn_.redeployed = turn_.conquests_over = turn_.active_started = true;
}

// Erosion (4.a): the k-th most recently declined race loses k tokens. Unprotected regions are considered first;
// each region in turn gives up to the rest of the demand, after its defences take 1 each off it.
Code Game::CheckErode(const Action& a, std::string* why) const {
  const std::vector<Race>& due = solo_.turn.erosion_due;
  const auto it = std::find(due.begin(), due.end(), static_cast<Race>(a.race));
  if (a.race < 0 || it == due.end() || RegionsHeld(static_cast<Race>(a.race)) == 0)
    return Reject(why, Code::kBadTarget,
                  [&] { return "the " + RaceName(a.race) + " are not one of the player's races in decline at the start of this turn"; });
  const Race race = static_cast<Race>(a.race);
  const std::string name = "the " + RaceName(a.race);
  if (solo_.turn.eroded & (1u << a.race))
    return Reject(why, Code::kWrongPhase, [&] { return name + " have already lost their tokens this turn"; });
  for (const int placing : {players_[0].active, DeclinedGhouls(0)}) {
    if (placing < 0 || RegionsHeld(static_cast<Race>(placing)) == 0 || SoloHandToPlace(static_cast<Race>(placing)) == 0) continue;
    return Reject(why, Code::kWrongPhase, [&] {
      return "place the tokens in hand of the " + RaceName(placing) +
             " first (redeploy with add): the redeployment comes before the erosion";
    });
  }
  const int demand = static_cast<int>(it - due.begin()) + 1;
  int unprotected = 0;
  for (const RegionState& r : board_) unprotected += r.race == a.race && r.ErosionDefence() == 0;
  std::set<int> seen;
  int left = demand, listed_unprotected = 0;
  for (int region : a.regions) {
    if (!map_->Valid(region) || board_[region].race != a.race || !seen.insert(region).second)
      return Reject(why, Code::kBadPlacement, [&] { return RegionName(region) + " is not a region of " + name + " (or is listed twice)"; });
    if (left == 0)
      return Reject(why, Code::kBadPlacement, [&] {
        return name + " lose " + std::to_string(demand) + " tokens, all taken before " + RegionName(region) + " is considered";
      });
    const RegionState& r = board_[region];
    if (r.ErosionDefence() > 0 && listed_unprotected < unprotected)
      return Reject(why, Code::kBadPlacement, [&] {
        return RegionName(region) + " is protected: the regions of " + name + " without a defence are considered first";
      });
    listed_unprotected += r.ErosionDefence() == 0;
    left -= std::min(left, r.ErosionDefence());
    left -= std::min(left, static_cast<int>(r.tokens));
  }
  if (left > 0 && static_cast<int>(seen.size()) < RegionsHeld(race))
    return Reject(why, Code::kBadPlacement, [&] {
      return name + " (" + std::to_string(demand) +
             (demand == 1   ? "st"
              : demand == 2 ? "nd"
              : demand == 3 ? "rd"
                            : "th") +
             " most recently declined) lose " + std::to_string(demand) + " tokens; " + std::to_string(left) +
             " more to take: consider another region";
    });
  return Code::kOk;
}

void Game::DoErode(const Action& a) {
  const auto& due = solo_.turn.erosion_due;
  int left = static_cast<int>(std::find(due.begin(), due.end(), static_cast<Race>(a.race)) - due.begin()) + 1;
  for (int region : a.regions) {
    RegionState& r = board_[region];
    left -= std::min(left, r.ErosionDefence());
    const int take = std::min(left, static_cast<int>(r.tokens));
    left -= take;
    r.tokens = static_cast<uint8_t>(r.tokens - take);
    if (r.tokens == 0) r.ClearOccupant();  // a vacated region's defences leave the game
  }
  solo_.turn.eroded = static_cast<uint16_t>(solo_.turn.eroded | (1u << a.race));
  solo_.turn.eroding = true;
  turn_.conquests_over = turn_.ghouls_over = true;
  if (CountRegions(static_cast<Race>(a.race)) == 0) SoloLeave(static_cast<Race>(a.race));
}

}  // namespace swref::engine
