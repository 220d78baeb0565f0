#include "app/core/demo.h"

#include "engine/random_game.h"

namespace swref::core {
namespace {

using engine::Action;
using engine::ActionType;
using engine::Code;
using engine::Game;

// An illegal variant of the conquest `a` that the rules reject with `want`, or nullopt.
std::optional<Action> Illegal(const Game& game, const Action& a, Code want) {
  Action bad = a;
  if (want == Code::kNotEnoughTokens) {
    const int cost = game.ConquestCost(static_cast<engine::Race>(game.players()[a.player].active), a.region).total;
    if (cost < 2 || a.die >= 0) return std::nullopt;
    bad.tokens = cost - 1;
    bad.die = -1;
  } else {
    bad.tokens = -1, bad.die = -1;
    for (bad.region = 0; bad.region < game.map().size(); ++bad.region)
      if (game.Check(bad) == want) break;
  }
  if (bad.region >= game.map().size() || game.Check(bad) != want) return std::nullopt;
  return bad;
}

std::string Combo(const Game& game, int player) {
  const int race = game.players()[player].active;
  if (race >= 0)
    return std::string(engine::Info(static_cast<engine::Race>(race)).name) + " + " + std::string(engine::Info(game.civs()[race].power).name);
  if (game.turn().declined) return "decline turn";
  return "-";
}

}  // namespace

std::string SoloResultLine(const Game& game) {
  if (!game.solo()) return "";
  std::string line = "solo score " + std::to_string(game.SoloScore()) + " (the opposition " + std::to_string(game.solo()->OppositionTotal()) + ")";
  if (game.finished()) line += ", " + std::string(engine::ToString(game.SoloRating()));
  return line;
}

engine::Result<DemoReport> ScriptReport(const engine::Record& record) {
  using R = engine::Result<DemoReport>;
  auto start = engine::StartGame(record, ".");
  if (!start) return R::Error(start.error());
  Game game = std::move(*start);
  DemoReport report;
  report.record = record;
  for (size_t step = 0; step < record.actions.size(); ++step) {
    const Action& a = record.actions[step];
    const int round = game.round();
    const std::string combo = a.type == ActionType::kEndTurn ? Combo(game, a.player) : "";
    const size_t scored = game.scores().size();
    const engine::Verdict v = game.Apply(a);
    if (!v.ok()) {
      const bool solo_move = game.solo() && (a.type == ActionType::kRedeploy || a.type == ActionType::kErode);
      if (a.type != ActionType::kConquer && !solo_move)
        return R::Error("step " + std::to_string(step) + ": the rules reject a " + std::string(engine::ToString(a.type)) + ": " + v.why);
      report.flags.push_back({static_cast<int>(step), round, record.players[a.player], a.region, std::string(engine::ToString(v.code)), v.why});
      continue;
    }
    if (game.scores().size() > scored) {  // a SoloPlay setup race's end scores for the opposition, not a turn
      const engine::TurnScore& s = game.scores().back();
      report.turns.push_back({round, record.players[s.player], combo, s.coins, game.players()[s.player].coins});
    }
  }
  for (const auto& p : game.players()) report.final_coins.emplace_back(p.name, p.coins);
  for (int w : game.Winners()) report.winners.push_back(game.players()[w].name);
  report.solo_result = SoloResultLine(game);
  return report;
}

engine::Result<DemoReport> RunDemo(uint64_t seed) {
  using R = engine::Result<DemoReport>;
  auto map = engine::BuiltinMap("2p");
  if (!map) return R::Error(map.error());
  auto played = engine::PlayRandomGame(*map, seed);
  if (!played) return R::Error(played.error());
  engine::Record record = played->record;
  record.players = {"Ann", "Bob"};
  auto start = engine::StartGame(record, ".");
  if (!start) return R::Error(start.error());
  Game game = std::move(*start);

  // Replay, slipping the two illegal conquests in before real ones (a rejected action changes nothing).
  std::vector<Action> actions;
  const std::pair<int, Code> plan[] = {{2, Code::kNotEnoughTokens}, {4, Code::kNotAdjacent}};
  size_t next_flag = 0;
  for (const Action& a : record.actions) {
    if (next_flag < 2 && a.type == ActionType::kConquer && a.with == engine::With::kNone && game.round() >= plan[next_flag].first &&
        game.RegionsHeld(static_cast<engine::Race>(std::max(0, game.players()[a.player].active))) > 0) {
      if (auto bad = Illegal(game, a, plan[next_flag].second)) {
        game.Apply(*bad);
        actions.push_back(*bad);
        ++next_flag;
      }
    }
    const engine::Verdict v = game.Apply(a);
    if (!v.ok()) return R::Error("demo: the scripted game was rejected at step " + std::to_string(actions.size()) + ": " + v.why);
    actions.push_back(a);
  }
  record.actions = std::move(actions);
  return ScriptReport(record);
}

}  // namespace swref::core
