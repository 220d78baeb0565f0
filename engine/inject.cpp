#include "engine/inject.h"

#include <algorithm>
#include <array>

#include "engine/explain_match.h"
#include "engine/random_game.h"

namespace swref::engine {
namespace {

constexpr std::array<std::string_view, kIllegalKindCount> kKindNames = {
    "too_few_tokens",          "not_adjacent",       "not_entry_region", "immune_region",
    "water_without_seafaring", "decline_turn",       "dragon_misuse",    "sorcerer_misuse",
    "solo_not_neighbouring",   "solo_wrong_retreat", "solo_second_move", "solo_move_not_neighbouring",
    "solo_erosion_order",      "solo_setup_attack"};

bool TouchesRace(const Game& game, int region, int race) {
  for (int n : game.map().neighbours[region])
    if (game.board()[n].race == race) return true;
  return false;
}

// The regions where `a` (with its region changed) gets `want`, preferring those that are adjacent to the race and
// affordable with the hand; one at random.
std::optional<Action> Pick(const Game& game, Action a, Code want, int race, Rng& rng, bool (*fits)(const Game&, int)) {
  std::vector<int> best, rest;
  const int hand = race >= 0 && game.civs()[race].owner == a.player ? HandOnceReadied(game, race, a.with == With::kGhouls) : 0;
  for (int r = 0; r < game.map().size(); ++r) {
    if ((fits && !fits(game, r)) || (race >= 0 && game.board()[r].race == race)) continue;
    a.region = r;
    if (game.Check(a) != want) continue;
    const int cost = race >= 0 ? game.ConquestCost(static_cast<Race>(race), r).total : 2;
    const bool near = race < 0 || game.RegionsHeld(static_cast<Race>(race)) == 0 || TouchesRace(game, r, race);
    const bool affordable = (race >= 0 && game.civs()[race].decline) || cost <= std::max(hand, 1);
    ((near && affordable) ? best : rest).push_back(r);
  }
  const std::vector<int>& from = best.empty() ? rest : best;
  if (from.empty()) return std::nullopt;
  a.region = from[rng.Below(static_cast<uint32_t>(from.size()))];
  return a;
}

bool Land(const Game& game, int r) { return !game.map().regions[r].IsWater() && !game.board()[r].Immune(); }

std::optional<Action> ForKind(const Game& game, IllegalKind kind, const Action& next, Rng& rng) {
  const int p = game.current_player();
  const int race = game.players()[p].active;
  const Power power = race >= 0 ? game.civs()[race].power : Power::kAlchemist;
  Action a;
  a.type = ActionType::kConquer;
  a.player = p;
  if (kind == IllegalKind::kDeclineTurn) {  // a player who declined this turn attacks anyway
    if (!game.turn().declined || next.type != ActionType::kEndTurn) return std::nullopt;
    int declined = -1;
    for (int r = 0; r < kRaceCount; ++r)
      if (game.civs()[r].owner == p && game.civs()[r].decline && game.RegionsHeld(static_cast<Race>(r)) > 0) declined = r;
    return Pick(game, a, Code::kWrongPhase, declined, rng, [](const Game& g, int r) { return Land(g, r) && !g.board()[r].HasRace(); });
  }
  const bool conquest = next.type == ActionType::kConquer && next.with != With::kGhouls && next.player == p && race >= 0;
  if (!conquest) return std::nullopt;
  switch (kind) {
    case IllegalKind::kTooFewTokens: {
      if (next.with != With::kNone || next.die >= 0 || next.tokens >= 0) return std::nullopt;
      const int cost = game.ConquestCost(static_cast<Race>(race), next.region).total;
      if (cost < 2) return std::nullopt;
      a.region = next.region;
      a.tokens = cost - 1;
      if (game.Check(a) != Code::kNotEnoughTokens) return std::nullopt;
      return a;
    }
    case IllegalKind::kNotAdjacent:
      if (game.RegionsHeld(static_cast<Race>(race)) == 0 || power == Power::kFlying) return std::nullopt;
      return Pick(game, a, Code::kNotAdjacent, race, rng, Land);
    case IllegalKind::kNotEntryRegion:
      if (game.RegionsHeld(static_cast<Race>(race)) > 0) return std::nullopt;
      return Pick(game, a, Code::kNotEdgeEntry, race, rng, Land);
    case IllegalKind::kImmuneRegion:
      return Pick(game, a, Code::kImmuneRegion, race, rng, nullptr);
    case IllegalKind::kWaterWithoutSeafaring:
      return Pick(game, a, Code::kWaterNotAllowed, race, rng, nullptr);
    case IllegalKind::kDragonMisuse: {
      bool on_board = false;
      for (const RegionState& r : game.board()) on_board = on_board || r.dragon > 0;
      if (!on_board) return std::nullopt;
      a.with = With::kDragon;
      return Pick(game, a, Code::kPowerNotAvailable, race, rng, Land);
    }
    case IllegalKind::kSorcererMisuse: {
      if (race != static_cast<int>(Race::kSorcerers)) return std::nullopt;
      a.with = With::kSorcery;
      for (Code want : {Code::kBadTarget, Code::kPowerNotAvailable})
        if (auto found = Pick(game, a, want, race, rng, [](const Game& g, int r) {
              return Land(g, r) && g.board()[r].HasRace() && g.board()[r].owner != g.current_player();
            }))
          return found;
      return std::nullopt;
    }
    default:
      break;  // kDeclineTurn above; the solo kinds: inject_solo.cpp
  }
  return std::nullopt;
}

// Sorcerers, Halflings, Dragon Master and Heroic near the top of the stacks, in an order that depends on the seed.
RandomStacks Stacks(uint64_t seed) {
  Rng rng(seed ^ 0x57ac5ULL);
  RandomStacks stacks;
  stacks.races = {Race::kSorcerers, Race::kHalflings};
  stacks.powers = {Power::kDragonMaster, Power::kHeroic};
  rng.Shuffle(stacks.races);
  rng.Shuffle(stacks.powers);
  return stacks;
}

}  // namespace

std::string_view ToString(IllegalKind kind) { return kKindNames[static_cast<int>(kind)]; }

std::optional<Action> IllegalConquest(const Game& game, IllegalKind kind, const Action& next, Rng& rng) {
  if (game.finished()) return std::nullopt;
  auto bad = ForKind(game, kind, next, rng);
  const int race = game.players()[game.current_player()].active;
  if (!bad || race < 0 || bad->with == With::kSorcery) return bad;
  // What lies on the table is what the player holds: never more tokens than in hand.
  const int hand = HandOnceReadied(game, race, false);
  if (hand == 0) return std::nullopt;
  const int placed = bad->tokens >= 0 ? bad->tokens : bad->with == With::kDragon ? 1 : game.ConquestCost(static_cast<Race>(race), bad->region).total;
  if (placed > hand) bad->tokens = hand;
  if (game.Check(*bad) == Code::kOk) return std::nullopt;
  return bad;
}

namespace {

using IllegalFor = std::optional<Action> (*)(const Game&, IllegalKind, const Action& next, const Action* previous, Rng&);

// Replays `played`, slipping in before each action at most one illegal action of the kinds [first, end) that
// `illegal` finds (at the options' rate, up to per_kind of each).
Result<InjectedGame> Inject(const Record& played, uint64_t rng_seed, int first, int end, const InjectOptions& options, IllegalFor illegal) {
  using R = Result<InjectedGame>;
  InjectedGame out;
  out.record = played;
  auto started = StartGame(out.record, ".");
  if (!started) return R::Error(started.error());
  Game game = std::move(*started);
  Rng rng(rng_seed);
  std::array<int, kIllegalKindCount> made{};
  std::vector<Action> actions;
  std::vector<int> kinds;
  for (int k = first; k < end; ++k) kinds.push_back(k);
  for (const Action& next : played.actions) {
    rng.Shuffle(kinds);
    for (int k : kinds) {
      if (made[k] >= options.per_kind) continue;
      auto bad = illegal(game, static_cast<IllegalKind>(k), next, actions.empty() ? nullptr : &actions.back(), rng);
      if (!bad || rng.Below(1000) >= static_cast<uint32_t>(options.rate * 1000)) continue;
      const Verdict v = game.Apply(*bad);
      if (v.ok()) return R::Error("inject: an illegal " + std::string(ToString(static_cast<IllegalKind>(k))) + " action was accepted");
      out.flags.push_back({static_cast<int>(actions.size()), static_cast<IllegalKind>(k), v.code});
      actions.push_back(*bad);
      ++made[k];
      break;
    }
    const Verdict v = game.Apply(next);
    if (!v.ok()) return R::Error("inject: the played game was rejected at step " + std::to_string(actions.size()) + ": " + v.why);
    actions.push_back(next);
  }
  out.record.actions = std::move(actions);
  return out;
}

}  // namespace

Result<InjectedGame> PlayInjectedGame(const std::shared_ptr<const Map>& map, uint64_t seed, const InjectOptions& options) {
  auto played = PlayRandomGame(map, seed, nullptr, Stacks(seed));
  if (!played) return Result<InjectedGame>::Error(played.error());
  auto conquest = [](const Game& game, IllegalKind kind, const Action& next, const Action*, Rng& rng) {
    return IllegalConquest(game, kind, next, rng);
  };
  return Inject(played->record, seed ^ 0x1e9a1ULL, 0, kStandardIllegalKindCount, options, conquest);
}

Result<InjectedGame> PlayInjectedSoloGame(const std::shared_ptr<const Map>& map, uint64_t seed, const InjectOptions& options) {
  auto played = PlayRandomSoloGame(map, seed);
  if (!played) return Result<InjectedGame>::Error(played.error());
  return Inject(played->record, seed ^ 0x5010e1ULL, kStandardIllegalKindCount, kIllegalKindCount, options, IllegalSoloAction);
}

}  // namespace swref::engine
