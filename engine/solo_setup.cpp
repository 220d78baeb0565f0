// SoloPlay setup (seeds/003, Game Setup 1-8): the board's lost tribes, the opposition combos and the player's five,
// then each opposition race's placement: its balancing redeploy, its score, its penalties, and at the end the vacant
// regions. The conquests of a placement and their limitations: solo_placement.cpp.
#include <algorithm>
#include <set>

#include "engine/game.h"
#include "engine/verdict_text.h"

namespace swref::engine {
namespace {

std::string ComboProblem(const std::vector<SoloCombo>& combos, const char* field, size_t count, std::set<int>* races,
                         std::set<int>* powers) {
  const std::string place = std::string("solo.") + field;
  if (combos.size() != count) return place + ": " + std::to_string(count) + " combos expected, " + std::to_string(combos.size()) + " given";
  for (size_t i = 0; i < combos.size(); ++i) {
    const std::string where = place + "[" + std::to_string(i) + "]";
    if (!races->insert(static_cast<int>(combos[i].race)).second)
      return where + ".race: \"" + std::string(Info(combos[i].race).id) + "\" is used twice";
    if (!powers->insert(static_cast<int>(combos[i].power)).second)
      return where + ".power: \"" + std::string(Info(combos[i].power).id) + "\" is used twice";
  }
  return "";
}

// "" when the tokens are spread as evenly as the exceptions allow, else why not.
std::string BalanceProblem(const std::vector<BalanceCell>& cells) {
  int total = 0, floor_needed = 0;
  for (const BalanceCell& c : cells) total += c.tokens, floor_needed += c.capped ? 1 : c.defended ? 2 : 1;
  const bool defend = total >= floor_needed;
  auto lower = [&](const BalanceCell& c) { return c.defended && defend ? 2 : 1; };
  for (const BalanceCell& c : cells) {
    if (c.capped && c.tokens != 1)
      return RegionName(c.region) + " (water, hole, hero or dragon) keeps exactly 1 token, not " + std::to_string(c.tokens);
    if (!c.capped && c.tokens < lower(c))
      return RegionName(c.region) + " has a lair, fortress or encampment: it is defended by at least 2 tokens, not " +
             std::to_string(c.tokens);
  }
  for (const BalanceCell& a : cells) {
    for (const BalanceCell& b : cells) {
      if (a.capped || b.capped || a.tokens <= b.tokens + 1 || a.tokens == lower(a)) continue;
      return RegionName(a.region) + " holds " + std::to_string(a.tokens) + " tokens and " + RegionName(b.region) + " holds " +
             std::to_string(b.tokens) + ": balance them as evenly as possible (at most 1 apart)";
    }
  }
  return "";
}

}  // namespace

std::string Game::SetUpSolo(const GameOptions& options) {
  const SoloOptions& o = options.solo_options;
  if (o.coins != 5 && o.coins != 1) return "solo.coins: expected 5 (or 1 for the harder game), got " + std::to_string(o.coins);
  solo_.on = true;
  solo_.rounds = kSoloRounds + (o.extra_round ? 1 : 0);
  players_[0].coins = o.coins;
  if (o.has_lost_tribes) {  // rule 3a/3b
    if (std::string e = CheckLostTribes(*map_, o.lost_tribes); !e.empty()) return e;
    for (RegionState& r : board_) r.lost_tribe = 0;
    for (int id : o.lost_tribes) board_[id].lost_tribe = 1;
  }
  // Rules 4-7: the opposition draws the top combos of the stacks, the player gets the next five.
  const size_t opposing = static_cast<size_t>(OppositionCount(map_->players));
  std::set<int> races, powers;
  if (!o.opposition.empty())
    if (std::string e = ComboProblem(o.opposition, "opposition", opposing, &races, &powers); !e.empty()) return e;
  if (!o.combos.empty())
    if (std::string e = ComboProblem(o.combos, "combos", kSoloCombos, &races, &powers); !e.empty()) return e;
  std::erase_if(race_stack_, [&](Race r) { return races.count(static_cast<int>(r)) > 0; });
  std::erase_if(power_stack_, [&](Power p) { return powers.count(static_cast<int>(p)) > 0; });
  auto draw = [&](size_t n) {
    std::vector<SoloCombo> drawn;
    for (size_t i = 0; i < n; ++i) {
      drawn.push_back({race_stack_.front(), power_stack_.front()});
      race_stack_.erase(race_stack_.begin());
      power_stack_.erase(power_stack_.begin());
    }
    return drawn;
  };
  const std::vector<SoloCombo> opposition = o.opposition.empty() ? draw(opposing) : o.opposition;
  solo_.combos = o.combos.empty() ? draw(kSoloCombos) : o.combos;
  for (const SoloCombo& c : opposition) {
    OppositionRace o;
    o.race = c.race, o.power = c.power;
    solo_.opposition.push_back(o);
  }
  round_ = 0;
  StartPlacing();
  return "";
}

void Game::StartPlacing() {
  const OppositionRace& o = solo_.opposition[solo_.placing];
  CivState& c = civ_mut(o.race);
  c = CivState{};
  c.owner = kOpposition;
  c.power = o.power;
  c.hand = std::min(StartingTokens(o.race, o.power), Info(o.race).box_tokens);
  turn_ = TurnState{};
}

void Game::EndSetup() {  // 6.d.ii.3 and the start of round 1
  solo_.vacant = 0;
  for (int i = 0; i < map_->size(); ++i)
    if (!map_->regions[i].IsWater() && !board_[i].HasRace() && !board_[i].lost_tribe) ++solo_.vacant;
  for (OppositionRace& o : solo_.opposition) {
    o.unconquerable = true;
    for (const RegionState& r : board_)
      if (r.race == static_cast<int>(o.race) && !r.Immune()) o.unconquerable = false;
  }
  solo_.phase = SoloPhase::kPlay;
  round_ = 1;
  turn_ = TurnState{};
  solo_.turn = SoloTurn{};
}

int Game::SoloSkeletonBonus(Race race) const {
  if (race != Race::kSkeletons || civ(race).decline) return 0;
  return std::min(turn_.nonempty_conquered / 2, TokensInTray(race));
}

// The tokens the balancing redeploy places, and those in hand that cannot be placed (6.d.ii.2): a race that still
// holds tokens when no region is in reach leaves them out of the game; after a failed reinforcement attempt they
// go to its regions. The Amazons' 4 conquest-only tokens return to the box, from the hand first.
int Game::SetupToPlace(Race race, int* unplaceable) const {
  const CivState& c = civ(race);
  const int amazons = race == Race::kAmazons ? std::min(kAmazonConquestOnlyTokens, TokensOnBoard(race) + c.hand) : 0;
  const int spare_hand = c.hand - std::min(amazons, c.hand);
  const bool can_place = turn_.conquests_over && RegionsHeld(race) > 0;
  *unplaceable = can_place ? 0 : spare_hand;
  return TokensOnBoard(race) + c.hand - amazons - *unplaceable + SoloSkeletonBonus(race);
}

// The cells of a balancing `a`: each listed region with its tokens and the pieces it will have.
std::vector<BalanceCell> Game::BalanceCells(const Action& a) const {
  std::vector<BalanceCell> cells;
  for (const Placement& p : a.placement) {
    if (p.count == 0) continue;
    const RegionState& r = board_[p.region];
    const bool hero = a.heroes.empty() ? r.hero > 0 : std::count(a.heroes.begin(), a.heroes.end(), p.region) > 0;
    int camps = r.encampments;
    if (a.has_encampments) {
      camps = 0;
      for (const Placement& e : a.encampments) camps += e.region == p.region ? e.count : 0;
    }
    const bool capped = map_->regions[p.region].IsWater() || r.hole || r.dragon || hero;
    cells.push_back({p.region, p.count, capped, r.troll_lair || r.fortress || a.fortress == p.region || camps > 0});
  }
  return cells;
}

// The tokens a balancing places: all of them, unless every region is capped at 1 token (water, hole, hero,
// dragon); then the tokens beyond 1 per region have nowhere to go and are unplaced (6.d.ii.2).
static int BalancedTotal(const std::vector<BalanceCell>& cells, int total) {
  for (const BalanceCell& c : cells)
    if (!c.capped) return total;
  return std::min(total, static_cast<int>(cells.size()));
}

Code Game::CheckSetupRedeploy(const Action& a, std::string* why) const {
  const Race race = static_cast<Race>(SoloRace());
  const CivState& c = civ(race);
  const std::string name = "the " + RaceName(static_cast<int>(race));
  if (a.move.from >= 0 || !a.hole_moves.empty() || !a.add.empty() || a.with != With::kNone)
    return Reject(why, Code::kBadPlacement, [] { return "a setup redeploy is the balancing: `tokens` lists every region of the race"; });
  if (turn_.redeployed) return Reject(why, Code::kWrongPhase, [] { return "the race has already been balanced"; });
  if (c.hand > 0 && !turn_.conquests_over && SetupReachable() >= 0)
    return Reject(why, Code::kWrongPhase, [&] {
      return name + " still hold " + std::to_string(c.hand) + " tokens and can attack " + RegionName(SetupReachable()) +
             ": a setup race places every token it can by conquest";
    });
  int unplaceable = 0;
  const int to_place = SetupToPlace(race, &unplaceable);
  const int zeros_needed = std::max(0, RegionsHeld(race) - to_place);  // fewer tokens than regions (Amazons): some are left
  std::set<int> listed;
  int sum = 0, zeros = 0;
  for (const Placement& p : a.placement) {
    if (!map_->Valid(p.region))
      return Reject(why, Code::kUnknownRegion, [&] { return RegionName(p.region) + " is not on map " + map_->key; });
    if (board_[p.region].race != static_cast<int>(race) || !listed.insert(p.region).second || p.count < 0)
      return Reject(why, Code::kBadPlacement,
                    [&] { return RegionName(p.region) + ": each region of " + name + " is listed once with at least 1 token"; });
    sum += p.count, zeros += p.count == 0;
  }
  if (zeros != zeros_needed)
    return Reject(why, Code::kBadPlacement,
                  [&] { return "each region keeps at least 1 token where the tokens suffice: " + std::to_string(zeros) + " left empty"; });
  const std::vector<BalanceCell> cells = BalanceCells(a);
  const int total = BalancedTotal(cells, to_place);
  if (static_cast<int>(listed.size()) != RegionsHeld(race) || sum != total)
    return Reject(why, Code::kBadPlacement, [&] {
      return "the balancing lists " + std::to_string(listed.size()) + " regions with " + std::to_string(sum) + " tokens; " + name +
             " hold " + std::to_string(RegionsHeld(race)) + " regions and have " + std::to_string(total) + " tokens to place";
    });
  std::vector<int> after(map_->size(), 0);
  for (const Placement& p : a.placement) after[p.region] = p.count;
  if (Code code = CheckPieces(race, a, after, why); code != Code::kOk) return code;
  if (std::string missing = SetupPiecesMissing(race, a); !missing.empty()) return Reject(why, Code::kBadPlacement, [&] { return missing; });
  if (std::string problem = BalanceProblem(cells); !problem.empty()) return Reject(why, Code::kBadPlacement, [&] { return problem; });
  return Code::kOk;
}

// The pieces the normal rules have the race place at the end of its turn (6.d.i.1): Fortified's fortress, Heroic's
// heroes, Bivouacking's 5 encampments, where the race holds a region. "" when `a` places them.
std::string Game::SetupPiecesMissing(Race race, const Action& a) const {
  const int held = RegionsHeld(race);
  const Power power = civ(race).power;
  if (held == 0) return "";
  const std::string name = "the " + std::string(Info(power).name) + " " + RaceName(static_cast<int>(race));
  if (power == Power::kFortified && a.fortress < 0) return name + " place their fortress (`fortress` on the redeploy)";
  if (power == Power::kHeroic && static_cast<int>(a.heroes.size()) != std::min(2, held))
    return name + " place " + std::to_string(std::min(2, held)) + " heroes (`heroes` on the redeploy)";
  int camps = 0;
  for (const Placement& e : a.encampments) camps += e.count;
  if (power == Power::kBivouacking && camps != Info(Piece::kEncampment).in_box)
    return name + " place their 5 encampments (`encampments` on the redeploy)";
  return "";
}

void Game::DoSetupRedeploy(const Action& a) {
  const Race race = static_cast<Race>(SoloRace());
  CivState& c = civ_mut(race);
  int unplaceable = 0, placed = 0;
  const int total = SetupToPlace(race, &unplaceable);
  for (const Placement& p : a.placement) {
    board_[p.region].tokens = static_cast<uint8_t>(p.count), placed += p.count;
    if (p.count == 0) board_[p.region].ClearOccupant();
  }
  solo_.opposition[solo_.placing].unplaced = unplaceable + total - placed;
  c.hand = 0;  // placed, unplaceable, or the Amazons' 4 back in the box
  PlacePieces(race, a);
  turn_.conquests_over = turn_.redeployed = true;
}

Code Game::CheckSetupEndTurn(const Action& a, std::string* why) const {
  const Race race = static_cast<Race>(SoloRace());
  const CivState& c = civ(race);
  const std::string name = "the " + RaceName(static_cast<int>(race));
  if (a.decline) return Reject(why, Code::kWrongPhase, [] { return "opposition races never decline"; });
  if (c.hand > 0 && !turn_.conquests_over && SetupReachable() >= 0)
    return Reject(why, Code::kBadPlacement, [&] {
      return name + " still hold " + std::to_string(c.hand) + " tokens and can attack " + RegionName(SetupReachable()) +
             ": a setup race places every token it can by conquest";
    });
  if (turn_.redeployed) return Code::kOk;
  int unplaceable = 0;
  SetupToPlace(race, &unplaceable);
  const int amazons_from_board =
      race == Race::kAmazons ? std::max(0, std::min(kAmazonConquestOnlyTokens, TokensOnBoard(race) + c.hand) - c.hand) : 0;
  const int to_place = c.hand - unplaceable - (race == Race::kAmazons ? std::min(kAmazonConquestOnlyTokens, c.hand) : 0);
  if (to_place > 0 || SoloSkeletonBonus(race) > 0 || amazons_from_board > 0)
    return Reject(why, Code::kBadPlacement, [&] {
      return name + " have tokens to place or return to the box (" + std::to_string(to_place + SoloSkeletonBonus(race)) + " to place, " +
             std::to_string(amazons_from_board) + " conquest-only tokens on the board): redeploy them";
    });
  Action none;
  if (std::string missing = SetupPiecesMissing(race, none); !missing.empty())
    return Reject(why, Code::kBadPlacement, [&] { return missing; });
  std::vector<BalanceCell> cells;
  for (int i = 0; i < map_->size(); ++i) {
    const RegionState& r = board_[i];
    if (r.race != static_cast<int>(race)) continue;
    cells.push_back({i, r.tokens, map_->regions[i].IsWater() || r.Immune(), r.troll_lair || r.fortress || r.encampments});
  }
  if (std::string problem = BalanceProblem(cells); !problem.empty())
    return Reject(why, Code::kBadPlacement, [&] { return problem + "; redeploy to balance"; });
  return Code::kOk;
}

void Game::DoSetupEndTurn(const Action&) {
  OppositionRace& o = solo_.opposition[solo_.placing];
  CivState& c = civ_mut(o.race);
  if (!turn_.redeployed) {
    int unplaceable = 0;
    SetupToPlace(o.race, &unplaceable);
    o.unplaced = unplaceable;
    c.hand = 0;
  }
  o.coins = ScoreRace(o.race);
  o.requirements = EvaluateRequirements(o.race, o.power, o.events, *map_);
  o.placed = true;
  c.first_turn = false;
  if (++solo_.placing < static_cast<int>(solo_.opposition.size()))
    StartPlacing();
  else
    EndSetup();
}

}  // namespace swref::engine
