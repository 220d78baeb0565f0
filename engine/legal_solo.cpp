// Legal-action enumeration of a SoloPlay game (legal.h, docs/solo.md). Conquests from neighbouring regions have
// many forms; one representative is listed for each target and way of attacking: the neighbouring regions with
// the most tokens to spare give them (one token stays in each) until the cost is reached, or all of them for a
// reinforcement attempt. A hero joining an attack, emptying a region to attack, and the redeployment's move are not
// listed; the balancing and the tokens in hand are placed as evenly as the rules allow.
#include <algorithm>

#include "engine/legal.h"

namespace swref::engine {
namespace {

void PushIfLegalSolo(const Game& game, const Action& a, std::vector<Action>* out) {
  if (game.Check(a) == Code::kOk) out->push_back(a);
}

// Tokens of `race` that neighbouring regions of `target` can give, most first, one token left in each.
std::vector<Placement> Spare(const Game& game, Race race, int target) {
  std::vector<Placement> spare;
  for (int i = 0; i < game.map().size(); ++i) {
    const RegionState& r = game.board()[i];
    if (r.race == static_cast<int>(race) && r.tokens > 1 && game.SoloNeighbours(race, i, target)) spare.push_back({i, r.tokens - 1});
  }
  std::stable_sort(spare.begin(), spare.end(), [](const Placement& a, const Placement& b) { return a.count > b.count; });
  return spare;
}

std::vector<Placement> Take(const std::vector<Placement>& spare, int wanted) {
  std::vector<Placement> from;
  for (const Placement& p : spare) {
    if (wanted <= 0) break;
    from.push_back({p.region, std::min(p.count, wanted)});
    wanted -= from.back().count;
  }
  return from;
}

void WithRetreat(const Game& game, Action* a) {
  const RegionState& r = game.board()[a->region];
  if (!r.HasRace() || r.owner != kOpposition || game.map().players == 5) return;
  std::vector<int> places;
  for (int n : game.map().neighbours[a->region])
    if (game.board()[n].race == r.race) places.push_back(n);
  const int moving = std::max(0, r.tokens - 2);
  if (moving > 0 && moving < static_cast<int>(places.size())) {
    a->has_retreat = true;
    a->retreat.assign(places.begin(), places.begin() + moving);
  }
}

void HandConquests(const Game& game, Race race, With with, Action a, std::vector<Action>* out) {
  a.with = with;
  a.die = -1;
  const bool outright = game.Check(a) == Code::kOk;
  if (outright) out->push_back(a);
  if (with == With::kDragon || with == With::kSorcery) return;
  const bool berserk = with != With::kGhouls && game.civ(race).power == Power::kBerserk;
  if (outright && !berserk) return;
  for (int face : {0, 1, 2, 3}) a.die = face, PushIfLegalSolo(game, a, out);
}

void SourceConquests(const Game& game, Race race, With with, Action a, std::vector<Action>* out) {
  a.with = with;
  const std::vector<Placement> spare = Spare(game, race, a.region);
  if (spare.empty()) return;
  const int cost = game.ConquestCost(race, a.region, with == With::kGhouls).total;
  if (with == With::kDragon) {
    a.from = Take(spare, 1);
    PushIfLegalSolo(game, a, out);
    return;
  }
  a.from = Take(spare, cost);
  PushIfLegalSolo(game, a, out);
  const bool berserk = with != With::kGhouls && game.civ(race).power == Power::kBerserk;
  for (int face : {0, 1, 2, 3}) {
    a.die = face;
    a.from = Take(spare, berserk ? std::max(cost - face, 1) : 1 << 20);
    PushIfLegalSolo(game, a, out);
  }
}

void Conquests(const Game& game, std::vector<Action>* out) {
  const bool setup = game.solo()->phase == SoloPhase::kSetup;
  for (int region = 0; region < game.map().size(); ++region) {
    Action a;
    a.type = ActionType::kConquer;
    a.region = region;
    for (With with : {With::kNone, With::kDragon, With::kSorcery, With::kGhouls}) {
      const int race = with == With::kGhouls ? game.DeclinedGhouls(0) : game.SoloRace();
      if (race < 0 || (setup && with == With::kGhouls)) continue;
      Action b = a;
      if (!setup) WithRetreat(game, &b);
      if (with == With::kSorcery) {
        b.with = with;
        PushIfLegalSolo(game, b, out);
      } else if (setup || game.FromHand(static_cast<Race>(race))) {
        HandConquests(game, static_cast<Race>(race), with, b, out);
      } else if (!setup) {
        SourceConquests(game, static_cast<Race>(race), with, b, out);
      }
    }
  }
}

// Spreads `total` over `cells` as evenly as possible: capped cells get 1, defended ones at least 2 when possible.
struct Cell {
  int region;
  bool capped, defended;
  int tokens = 0;
};

std::vector<Placement> Spread(std::vector<Cell> cells, int total) {
  int floor_needed = 0;
  for (const Cell& c : cells) floor_needed += c.capped ? 1 : c.defended ? 2 : 1;
  const bool defend = total >= floor_needed;
  int left = total;
  for (Cell& c : cells) left -= c.tokens = c.capped ? 1 : (c.defended && defend ? 2 : 1);
  while (left > 0) {
    Cell* lowest = nullptr;
    for (Cell& c : cells)
      if (!c.capped && (!lowest || c.tokens < lowest->tokens)) lowest = &c;
    if (!lowest) break;
    ++lowest->tokens, --left;
  }
  std::vector<Placement> placement;
  for (const Cell& c : cells) placement.push_back({c.region, c.tokens});
  return placement;
}

void Balancing(const Game& game, std::vector<Action>* out) {
  const Race race = static_cast<Race>(game.SoloRace());
  Action a;
  a.type = ActionType::kRedeploy;
  std::vector<Cell> cells;
  for (int i = 0; i < game.map().size(); ++i) {
    const RegionState& r = game.board()[i];
    if (r.race == static_cast<int>(race))
      cells.push_back({i, game.map().regions[i].IsWater() || r.Immune(), r.troll_lair || r.fortress || r.encampments});
  }
  if (cells.empty()) return;
  const Power power = game.civ(race).power;
  if (power == Power::kFortified) a.fortress = cells[0].region, cells[0].defended = true;
  if (power == Power::kBivouacking) a.has_encampments = true, a.encampments = {{cells[0].region, 5}}, cells[0].defended = true;
  if (power == Power::kHeroic) {
    for (size_t i = 0; i < cells.size() && a.heroes.size() < 2; ++i) a.heroes.push_back(cells[i].region), cells[i].capped = true;
    for (Cell& c : cells)
      if (std::find(a.heroes.begin(), a.heroes.end(), c.region) == a.heroes.end())
        c.capped = game.map().regions[c.region].IsWater() || game.board()[c.region].hole || game.board()[c.region].dragon;
  }
  int unplaceable = 0;
  const int total = game.SetupToPlace(race, &unplaceable);
  std::vector<Cell> left_empty;
  while (static_cast<int>(cells.size()) > std::max(total, 1)) left_empty.push_back(cells.back()), cells.pop_back();
  a.placement = Spread(cells, total);
  for (const Cell& c : left_empty) a.placement.push_back({c.region, 0});
  PushIfLegalSolo(game, a, out);
}

void TokensInHand(const Game& game, std::vector<Action>* out) {
  for (With with : {With::kNone, With::kGhouls}) {
    const int race = with == With::kGhouls ? game.DeclinedGhouls(0) : game.players()[0].active;
    if (race < 0) continue;
    Action a;
    a.type = ActionType::kRedeploy;
    a.with = with;
    const int failed = with == With::kGhouls ? game.solo()->turn.ghouls_failed_region : game.solo()->turn.failed_region;
    std::vector<int> near, all;
    for (int i = 0; i < game.map().size(); ++i) {
      if (game.board()[i].race != race) continue;
      all.push_back(i);
      if (failed >= 0 && game.SoloNeighbours(static_cast<Race>(race), i, failed)) near.push_back(i);
    }
    const std::vector<int>& into = near.empty() ? all : near;
    const int total = into.empty() ? 0 : game.SoloHandToPlace(static_cast<Race>(race));
    for (size_t i = 0; i < into.size(); ++i) {
      const int n = total / static_cast<int>(into.size()) + (static_cast<int>(i) < total % static_cast<int>(into.size()) ? 1 : 0);
      if (n > 0) a.add.push_back({into[i], n});
    }
    PushIfLegalSolo(game, a, out);
  }
}

void Erosions(const Game& game, std::vector<Action>* out) {
  for (Race race : game.solo()->turn.erosion_due) {
    Action a;
    a.type = ActionType::kErode;
    a.race = static_cast<int>(race);
    int left = static_cast<int>(std::find(game.solo()->turn.erosion_due.begin(), game.solo()->turn.erosion_due.end(), race) -
                                game.solo()->turn.erosion_due.begin()) +
               1;
    for (bool protected_pass : {false, true}) {
      for (int i = 0; i < game.map().size() && left > 0; ++i) {
        const RegionState& r = game.board()[i];
        const int defence = r.troll_lair + r.fortress + r.encampments + r.hole;
        if (r.race != static_cast<int>(race) || (defence > 0) != protected_pass) continue;
        a.regions.push_back(i);
        left -= std::min(left, defence);
        left -= std::min(left, static_cast<int>(r.tokens));
      }
    }
    PushIfLegalSolo(game, a, out);
  }
}

}  // namespace

void EnumerateSoloLegal(const Game& game, std::vector<Action>* out) {
  const bool setup = game.solo()->phase == SoloPhase::kSetup;
  Action a;
  a.type = ActionType::kPick;
  for (int slot = 0; !setup && slot < static_cast<int>(game.solo()->combos.size()); ++slot) a.slot = slot, PushIfLegalSolo(game, a, out);
  Conquests(game, out);
  if (setup)
    Balancing(game, out);
  else
    TokensInHand(game, out), Erosions(game, out);
  Action end;
  end.type = ActionType::kEndTurn;
  PushIfLegalSolo(game, end, out);
  end.decline = true;
  PushIfLegalSolo(game, end, out);
}

}  // namespace swref::engine
