#include "engine/random_game.h"

#include <algorithm>

#include "engine/legal.h"
#include "engine/rng.h"

namespace swref::engine {
namespace {

constexpr int kMaxSteps = 20000;  // a 5-player game takes a few hundred; more means the engine loops

double Weight(const Game& game, const Action& a, int berserk_face) {
  const TurnState& t = game.turn();
  switch (a.type) {
    case ActionType::kPick: return 6.0 - a.slot;
    case ActionType::kDecline: return 6.0;  // about one turn in eight with a race to decline
    case ActionType::kAbandon: return 0.15;
    case ActionType::kConquer: {
      if (a.with == With::kDragon || a.with == With::kSorcery) return 6.0;
      const int active = game.players()[a.player].active;
      const bool berserk = a.with != With::kGhouls && active >= 0 && game.civs()[active].power == Power::kBerserk;
      if (berserk) return a.die == berserk_face ? 10.0 : 0.0;
      return a.die < 0 ? 10.0 : (a.die == 0 ? 1.5 : 0.0);  // one entry per attempt; the face is rolled later
    }
    case ActionType::kRedeploy: return 1.0;
    case ActionType::kWithdraw: return t.conquests_over ? 40.0 : 0.2;
    case ActionType::kAlly: return 3.0;
    case ActionType::kEndTurn: return a.decline ? 0.4 : 1.0;
    case ActionType::kErode: return 1.0;  // SoloPlay only
  }
  return 1.0;
}

// A random placement: 1 token per region, the rest anywhere; pieces of the power placed at random.
void Randomize(const Game& game, Rng& rng, Action* a) {
  std::vector<Placement>& p = a->placement;
  if (p.empty()) return;
  int total = 0, zeros = 0;
  for (Placement& x : p) total += x.count, zeros += x.count == 0;
  if (zeros == 0) {
    for (Placement& x : p) x.count = 1;
    for (int extra = total - static_cast<int>(p.size()); extra > 0; --extra) ++p[rng.Below(static_cast<uint32_t>(p.size()))].count;
  }
  if (a->with == With::kGhouls) return;
  const int race = game.players()[a->player].active;
  const Power power = game.civs()[race].power;
  std::vector<int> kept;
  for (const Placement& x : p)
    if (x.count > 0) kept.push_back(x.region);
  if (kept.empty()) return;
  auto any = [&] { return kept[rng.Below(static_cast<uint32_t>(kept.size()))]; };
  if (power == Power::kBivouacking) {
    a->has_encampments = true;
    for (int i = 0; i < 5; ++i) a->encampments.push_back({any(), 1});
    std::sort(a->encampments.begin(), a->encampments.end(), [](auto& x, auto& y) { return x.region < y.region; });
    std::vector<Placement> merged;
    for (const Placement& e : a->encampments) {
      if (!merged.empty() && merged.back().region == e.region) ++merged.back().count;
      else merged.push_back(e);
    }
    a->encampments = merged;
  }
  if (power == Power::kFortified && !game.turn().fortress_placed) a->fortress = any();
  if (power == Power::kHeroic) {
    a->heroes = {any()};
    const int second = any();  // drawn as before, so that the games without a clash stay the same
    if (second != a->heroes[0]) a->heroes.push_back(second);
    for (size_t i = 0; i < kept.size() && a->heroes.size() < 2; ++i)  // both heroes, when it keeps 2 regions (RULINGS 10)
      if (kept[i] != a->heroes[0]) a->heroes.push_back(kept[i]);
  }
}

}  // namespace

Result<RandomGame> PlayRandomGame(const std::shared_ptr<const Map>& map, uint64_t seed, const ActionObserver& observer) {
  return PlayRandomGame(map, seed, observer, RandomStacks{});
}

Result<RandomGame> PlayRandomGame(const std::shared_ptr<const Map>& map, uint64_t seed, const ActionObserver& observer,
                                  const RandomStacks& stacks) {
  using R = Result<RandomGame>;
  Record record;
  record.map = map->key;
  record.seed = seed;
  record.races = stacks.races;
  record.powers = stacks.powers;
  for (int i = 0; i < map->players; ++i) record.players.push_back(std::string("P").append(std::to_string(i + 1)));
  GameOptions options;
  options.map = map;
  options.players = record.players;
  options.races = stacks.races;
  options.powers = stacks.powers;
  options.seed = seed;
  auto created = Game::Create(options);
  if (!created) return R::Error(created.error());
  Game game = std::move(*created);
  Rng rng(seed ^ 0x5eed5eed5eedULL);
  std::vector<Action> legal;
  std::vector<double> weights;
  for (int step = 0; !game.finished(); ++step) {
    if (step == kMaxSteps) return R::Error("random game " + std::to_string(seed) + ": no end after " + std::to_string(kMaxSteps) + " actions");
    EnumerateLegal(game, &legal);
    if (legal.empty()) {
      Game probe = game;
      Action end;
      end.player = game.current_player();
      return R::Error("random game " + std::to_string(seed) + ": no legal action at step " + std::to_string(step) + " (end_turn: " + probe.Apply(end).why + ")");
    }
    const int berserk_face = kDieFaces[rng.Below(6)];
    double sum = 0;
    weights.resize(legal.size());
    for (size_t i = 0; i < legal.size(); ++i) sum += weights[i] = Weight(game, legal[i], berserk_face);
    size_t chosen = legal.size() - 1;
    if (sum > 0) {
      double x = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53 * sum;
      for (size_t i = 0; i < legal.size(); ++i)
        if ((x -= weights[i]) < 0) { chosen = i; break; }
    }
    Action action = legal[chosen];
    if (action.type == ActionType::kConquer && action.die >= 0) {
      const int active = game.players()[action.player].active;
      const bool berserk = action.with != With::kGhouls && active >= 0 && game.civs()[active].power == Power::kBerserk;
      if (!berserk) action.die = kDieFaces[rng.Below(6)];
    }
    if (action.type == ActionType::kRedeploy) {
      Action randomized = action;
      Randomize(game, rng, &randomized);
      if (game.Check(randomized) == Code::kOk) action = randomized;
    }
    const Verdict verdict = game.Apply(action);
    if (!verdict.ok())
      return R::Error("random game " + std::to_string(seed) + ": step " + std::to_string(step) + " listed as legal but rejected: " +
                      std::string(ToString(verdict.code)) + ": " + verdict.why);
    record.actions.push_back(action);
    if (observer) observer(game, action);
  }
  return RandomGame{std::move(record), std::move(game)};
}

}  // namespace swref::engine
