// Illegal SoloPlay actions slipped into random solo games (inject.h): an attack from a region that does not neighbour
// the target, a wrong retreat, a second redeployment, a move to a region that does not neighbour its source, an
// erosion in the wrong order (or stopping short), and a race placed at setup attacking one placed before it.
#include <algorithm>
#include <cstring>

#include "engine/inject.h"
#include "engine/table_script.h"

namespace swref::engine {
namespace {

std::vector<int> RegionsOf(const Game& game, int race) {
  std::vector<int> out;
  for (int i = 0; i < game.map().size(); ++i)
    if (game.board()[i].race == race && game.board()[i].HasRace()) out.push_back(i);
  return out;
}

int Any(const std::vector<int>& list, Rng& rng) { return list.empty() ? -1 : list[rng.Below(static_cast<uint32_t>(list.size()))]; }

// The real attack `next` made with the tokens of a region of the race that does not neighbour the target.
std::optional<Action> NotNeighbouring(const Game& game, const Action& next, Rng& rng) {
  if (next.type != ActionType::kConquer || next.from.empty() || next.with != With::kNone || next.die >= 0) return std::nullopt;
  const Race race = static_cast<Race>(game.players()[0].active);
  std::vector<int> far;
  for (int i : RegionsOf(game, static_cast<int>(race)))
    if (game.board()[i].tokens >= 2 && !game.SoloNeighbours(race, i, next.region)) far.push_back(i);
  if (far.empty()) return std::nullopt;
  Action a = next;
  const int source = Any(far, rng);
  const int cost = game.ConquestCost(race, next.region).total;
  a.from = {{source, std::min(cost, game.board()[source].tokens - 1)}};
  a.hero = -1;
  return a;
}

// The real attack `next` on an opposition region with its retreating tokens put where they may not go: a region of
// that race not next to the target, or one region too few.
std::optional<Action> WrongRetreat(const Game& game, const Action& next, Rng& rng) {
  if (next.type != ActionType::kConquer || next.with != With::kNone || next.die >= 0 || game.map().players == 5) return std::nullopt;
  const RegionState& r = game.board()[next.region];
  if (!r.HasRace() || r.owner != kOpposition || r.tokens <= 2) return std::nullopt;
  std::vector<int> places, elsewhere;
  for (int i : RegionsOf(game, r.race)) {
    if (i == next.region) continue;
    const auto& n = game.map().neighbours[next.region];
    (std::find(n.begin(), n.end(), i) != n.end() ? places : elsewhere).push_back(i);
  }
  const int moving = std::min(r.tokens - 2, static_cast<int>(places.size()));
  if (moving == 0) return std::nullopt;
  Action a = next;
  a.has_retreat = true;
  a.retreat.assign(places.begin(), places.begin() + moving);
  if (!elsewhere.empty())
    a.retreat.back() = Any(elsewhere, rng);
  else
    a.retreat.pop_back();
  return a;
}

// A move between two regions of the active race: neighbouring ones (a second redeployment), or not.
std::optional<Action> MoveBetween(const Game& game, bool neighbouring, Rng& rng) {
  const int race = game.players()[0].active;
  if (race < 0) return std::nullopt;
  const std::vector<int> regions = RegionsOf(game, race);
  std::vector<std::pair<int, int>> pairs;
  for (int from : regions)
    for (int to : regions)
      if (from != to && game.board()[from].tokens >= 2 && game.SoloNeighbours(static_cast<Race>(race), from, to) == neighbouring &&
          !(race == static_cast<int>(Race::kHalflings) && game.board()[to].hole))  // Halflings may move into a hole from anywhere
        pairs.emplace_back(from, to);
  if (pairs.empty()) return std::nullopt;
  const auto [from, to] = pairs[rng.Below(static_cast<uint32_t>(pairs.size()))];
  Action a;
  a.type = ActionType::kRedeploy;
  a.move = {from, to, game.board()[from].tokens - 1};
  return a;
}

// The real erosion `next` in an order the rules refuse: a defended region before one without a defence, else the
// list stopped before the demand is met.
std::optional<Action> ErosionOrder(const Game& game, const Action& next) {
  if (next.type != ActionType::kErode) return std::nullopt;
  const std::vector<int> regions = RegionsOf(game, next.race);
  const auto defended = std::find_if(regions.begin(), regions.end(), [&](int i) { return game.board()[i].ErosionDefence() > 0; });
  const bool open = std::any_of(regions.begin(), regions.end(), [&](int i) { return game.board()[i].ErosionDefence() == 0; });
  Action a = next;
  if (defended != regions.end() && open) {
    a.regions = {*defended};
    for (int i : regions)
      if (i != *defended) a.regions.push_back(i);
  } else if (next.regions.size() >= 2) {
    a.regions.pop_back();
  } else {
    return std::nullopt;
  }
  Game legal = game;  // an order the table cannot tell from the real one (its defences took what it stopped short of)
  const Board laid = SoloAttemptedBoard(game, a);
  if (!legal.Apply(next).ok() || std::memcmp(legal.board().data(), laid.data(), laid.size() * sizeof(RegionState)) == 0)
    return std::nullopt;
  return a;
}

// A conquest by the race being placed of a region held by a race placed before it, with its cost from the hand.
std::optional<Action> SetupAttack(const Game& game, const Action& next, Rng& rng) {
  if (next.type != ActionType::kConquer || game.solo()->phase != SoloPhase::kSetup) return std::nullopt;
  const int race = game.SoloRace();
  const int hand = game.civs()[race].hand;
  std::vector<int> near, any;
  for (int i = 0; i < game.map().size(); ++i) {
    const RegionState& r = game.board()[i];
    if (!r.HasRace() || r.race == race || r.Immune()) continue;
    any.push_back(i);
    for (int n : game.map().neighbours[i])
      if (game.board()[n].race == race) near.push_back(i);
  }
  const int region = Any(near.empty() ? any : near, rng);
  if (region < 0 || hand == 0) return std::nullopt;
  Action a;
  a.type = ActionType::kConquer;
  a.region = region;
  a.tokens = std::min(hand, game.ConquestCost(static_cast<Race>(race), region).total);
  return a;
}

}  // namespace

std::optional<Action> IllegalSoloAction(const Game& game, IllegalKind kind, const Action& next, const Action* previous, Rng& rng) {
  if (!game.solo() || game.finished()) return std::nullopt;
  const bool play = game.solo()->phase == SoloPhase::kPlay;
  std::optional<Action> bad;
  switch (kind) {
    case IllegalKind::kSoloNotNeighbouring:
      bad = play ? NotNeighbouring(game, next, rng) : std::nullopt;
      break;
    case IllegalKind::kSoloWrongRetreat:
      bad = play ? WrongRetreat(game, next, rng) : std::nullopt;
      break;
    case IllegalKind::kSoloSecondMove:
      if (play && previous && previous->type == ActionType::kRedeploy && previous->move.from >= 0 && game.turn().redeployed &&
          (next.type == ActionType::kEndTurn || next.type == ActionType::kErode))
        bad = MoveBetween(game, true, rng);
      break;
    case IllegalKind::kSoloMoveNotNeighbouring:
      if (play && next.type == ActionType::kRedeploy && next.with == With::kNone) bad = MoveBetween(game, false, rng);
      break;
    case IllegalKind::kSoloErosionOrder:
      bad = play ? ErosionOrder(game, next) : std::nullopt;
      break;
    case IllegalKind::kSoloSetupAttack:
      bad = SetupAttack(game, next, rng);
      break;
    default:
      break;
  }
  if (!bad || game.Check(*bad) == Code::kOk) return std::nullopt;
  return bad;
}

}  // namespace swref::engine
