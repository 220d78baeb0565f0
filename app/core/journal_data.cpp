#include "app/core/journal_data.h"

#include "engine/replay.h"

namespace swref::core {

using nlohmann::json;

json ActionData(int index, const json& action, const TimelineStep& step) {
  return {{"index", index}, {"action", action}, {"verdict", StepJson(step)}};
}

json FlagData(const json& action, int region, const engine::Verdict& verdict) {
  return {{"action", action}, {"region", region}, {"code", engine::ToString(verdict.code)}, {"why", verdict.why}};
}

int FlagRegion(const engine::Action& a) {
  if (a.region >= 0) return a.region;
  if (a.move.to >= 0) return a.move.to;
  if (!a.hole_moves.empty()) return a.hole_moves.front().to;
  if (!a.add.empty()) return a.add.front().region;
  if (!a.regions.empty()) return a.regions.front();
  return -1;
}

json CoinsData(const engine::Game& game, int turn) {
  const engine::TurnScore& s = game.scores()[turn];
  json totals = json::object();
  for (const engine::PlayerState& p : game.players()) totals[p.name] = p.coins;
  return {{"turn", turn},
          {"round", s.round},
          {"player", game.players()[s.player].name},
          {"coins", {{"regions", s.coins.regions}, {"race", s.coins.race}, {"power", s.coins.power}, {"total", s.coins.total()}}},
          {"totals", totals}};
}

json EndData(const engine::Game& game, const std::string& note) {
  json coins = json::object(), winners = json::array();
  for (const engine::PlayerState& p : game.players()) coins[p.name] = p.coins;
  for (int w : game.Winners()) winners.push_back(game.players()[w].name);
  json data = {{"reason", game.finished() ? "finished" : "stopped"}, {"coins", coins}, {"winners", winners}};
  if (game.solo()) data["solo"] = engine::SoloResult(game);
  if (!note.empty()) data["note"] = note;
  return data;
}

bool SameVerdict(const json& a, const json& b) {
  auto part = [](const json& v, const char* key) { return v.contains(key) ? v[key] : json(nullptr); };
  for (const char* key : {"ok", "ruling", "code"})
    if (part(a, key) != part(b, key)) return false;
  return true;
}

}  // namespace swref::core
