// Random legal SoloPlay games (random_game.h): the setup and the rounds drawn from the legal actions (legal.h),
// with real die rolls and, now and then, the redeployment's move. Used by the property tests.
#include "engine/legal.h"
#include "engine/random_game.h"
#include "engine/rng.h"

namespace swref::engine {
namespace {

constexpr int kMaxSoloSteps = 20000;

int ConqueringRace(const Game& game, const Action& a) { return a.with == With::kGhouls ? game.DeclinedGhouls(0) : game.SoloRace(); }

double SoloWeight(const Game& game, const Action& a, int berserk_face) {
  switch (a.type) {
    case ActionType::kPick:
      return 6.0 - a.slot;
    case ActionType::kConquer: {
      if (a.with == With::kDragon || a.with == With::kSorcery) return 6.0;
      const int race = ConqueringRace(game, a);
      const bool berserk = a.with != With::kGhouls && race >= 0 && game.civs()[race].power == Power::kBerserk;
      if (berserk) return a.die == berserk_face ? 10.0 : 0.0;
      return a.die < 0 ? 10.0 : (a.die == 0 ? 1.5 : 0.0);
    }
    case ActionType::kRedeploy:
      return 1.0;
    case ActionType::kErode:
      return 5.0;
    case ActionType::kEndTurn:
      return a.decline ? 0.5 : 1.0;
    default:
      return 1.0;
  }
}

// Sometimes the redeployment also moves tokens between two neighbouring regions of the active race.
void MaybeMove(const Game& game, Rng& rng, Action* a) {
  const int race = game.players()[0].active;
  if (a->with == With::kGhouls || race < 0 || rng.Below(2) == 0) return;
  std::vector<Move> moves;
  for (int i = 0; i < game.map().size(); ++i) {
    if (game.board()[i].race != race || game.board()[i].tokens < 2) continue;
    for (int j = 0; j < game.map().size(); ++j)
      if (j != i && game.board()[j].race == race && game.SoloNeighbours(static_cast<Race>(race), i, j))
        moves.push_back({i, j, game.board()[i].tokens - 1});
  }
  if (!moves.empty()) a->move = moves[rng.Below(static_cast<uint32_t>(moves.size()))];
}

}  // namespace

Result<RandomGame> PlayRandomSoloGame(const std::shared_ptr<const Map>& map, uint64_t seed, const ActionObserver& observer) {
  using R = Result<RandomGame>;
  Record record;
  record.map = map->key;
  record.seed = seed;
  record.variant = "solo";
  record.players = {"Solo"};
  GameOptions options;
  options.map = map;
  options.players = record.players;
  options.seed = seed;
  options.solo = true;
  auto created = Game::Create(options);
  if (!created) return R::Error(created.error());
  Game game = std::move(*created);
  Rng rng(seed ^ 0x501050105010ULL);
  std::vector<Action> legal;
  std::vector<double> weights;
  const std::string name = "random solo game " + map->key + " " + std::to_string(seed);
  for (int step = 0; !game.finished(); ++step) {
    if (step == kMaxSoloSteps) return R::Error(name + ": no end after " + std::to_string(kMaxSoloSteps) + " actions");
    EnumerateLegal(game, &legal);
    if (legal.empty()) {
      Game probe = game;
      return R::Error(name + ": no legal action at step " + std::to_string(step) + " (end_turn: " + probe.Apply(Action{}).why + ")");
    }
    const int berserk_face = kDieFaces[rng.Below(6)];
    double sum = 0;
    weights.resize(legal.size());
    for (size_t i = 0; i < legal.size(); ++i) sum += weights[i] = SoloWeight(game, legal[i], berserk_face);
    size_t chosen = legal.size() - 1;
    double x = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53 * sum;
    for (size_t i = 0; i < legal.size(); ++i)
      if ((x -= weights[i]) < 0) {
        chosen = i;
        break;
      }
    Action action = legal[chosen];
    const int race = action.type == ActionType::kConquer ? ConqueringRace(game, action) : -1;
    if (race >= 0 && action.die >= 0 && !(action.with != With::kGhouls && game.civs()[race].power == Power::kBerserk)) {
      Action rolled = action;
      rolled.die = kDieFaces[rng.Below(6)];
      if (game.Check(rolled) == Code::kOk) action = rolled;
    }
    if (action.type == ActionType::kRedeploy && game.solo()->phase == SoloPhase::kPlay) {
      Action moved = action;
      MaybeMove(game, rng, &moved);
      if (game.Check(moved) == Code::kOk) action = moved;
    }
    const Verdict verdict = game.Apply(action);
    if (!verdict.ok())
      return R::Error(name + ": step " + std::to_string(step) + " listed as legal but rejected: " + std::string(ToString(verdict.code)) +
                      ": " + verdict.why);
    record.actions.push_back(action);
    if (observer) observer(game, action);
  }
  return RandomGame{std::move(record), std::move(game)};
}

}  // namespace swref::engine
