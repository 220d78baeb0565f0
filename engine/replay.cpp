#include "engine/replay.h"

namespace swref::engine {

using OrderedJson = nlohmann::ordered_json;

Result<ReplayResult> Replay(const Record& record, const std::filesystem::path& base_dir) {
  auto game = StartGame(record, base_dir);
  if (!game) return Result<ReplayResult>::Error(game.error());
  ReplayResult result{{}, std::move(*game), {}};
  result.steps.reserve(record.actions.size());
  for (const Action& action : record.actions) {
    bool ruled = false;
    if (action.house_ruling) {
      result.steps.push_back(result.game.ApplyHouseRuling(action, &ruled));
      ruled = ruled && !result.steps.back().ok();
    } else {
      result.steps.push_back(result.game.Apply(action));
    }
    result.house_ruled.push_back(ruled);
  }
  return result;
}

OrderedJson RegionsDocument(const Game& game) {
  OrderedJson regions = OrderedJson::array();
  const auto& players = game.players();
  for (int i = 0; i < game.map().size(); ++i) {
    const RegionState& r = game.board()[i];
    if (!r.HoldsAnything()) continue;
    OrderedJson j = {{"id", i}};
    if (r.HasRace()) {
      j["owner"] = r.owner < game.player_count() ? OrderedJson(players[r.owner].name) : OrderedJson(nullptr);  // SoloPlay's opposition: null
      j["race"] = Info(r.race_id()).id;
      j["decline"] = r.decline;
      j["tokens"] = r.tokens;
    } else {
      j["owner"] = nullptr;
      j["race"] = r.lost_tribe ? OrderedJson("lost_tribe") : OrderedJson(nullptr);
      j["decline"] = false;
      j["tokens"] = r.lost_tribe;
    }
    OrderedJson pieces = OrderedJson::array();
    for (Piece p : {Piece::kMountain, Piece::kTrollLair, Piece::kFortress, Piece::kEncampment, Piece::kHole, Piece::kHero, Piece::kDragon})
      for (int k = 0; k < r.Count(p); ++k) pieces.push_back(Info(p).id);
    j["pieces"] = pieces;
    regions.push_back(j);
  }
  return regions;
}

namespace {

OrderedJson CoinsDocument(const CoinBreakdown& c) {
  return {{"regions", c.regions}, {"race", c.race}, {"power", c.power}, {"total", c.total()}};
}

OrderedJson OppositionDocument(const SoloState& solo) {
  OrderedJson races = OrderedJson::array();
  for (const OppositionRace& o : solo.opposition) {
    races.push_back({{"race", Info(o.race).id},
                     {"power", Info(o.power).id},
                     {"placed", o.placed},
                     {"coins", CoinsDocument(o.coins)},
                     {"requirements", {{"race", ToString(o.requirements.race)}, {"power", ToString(o.requirements.power)}}},
                     {"unplaced", o.unplaced},
                     {"penalties", o.penalties()},
                     {"total", o.placed ? o.total() : 0},
                     {"unconquerable", o.unconquerable},
                     {"kept", o.kept}});
  }
  return {{"races", races}, {"vacant", solo.vacant}, {"total", solo.OppositionTotal()}};
}

}  // namespace

OrderedJson SoloDocument(const Game& game) {
  const SoloState& solo = *game.solo();
  const bool setup = solo.phase == SoloPhase::kSetup;
  OrderedJson placing = nullptr;
  if (setup) {
    const OppositionRace& o = solo.opposition[solo.placing];
    placing = {{"index", solo.placing}, {"race", Info(o.race).id}, {"power", Info(o.power).id}};
  }
  OrderedJson combos = OrderedJson::array(), declined = OrderedJson::array(), missing = OrderedJson::array();
  for (size_t i = 0; i < solo.combos.size(); ++i)
    combos.push_back({{"slot", i}, {"race", Info(solo.combos[i].race).id}, {"power", Info(solo.combos[i].power).id}, {"cost", game.SoloPickCost(static_cast<int>(i))}});
  for (Race r : solo.declined) declined.push_back(Info(r).id);
  for (Terrain t : solo.terrains_missing) missing.push_back(ToString(t));
  OrderedJson end = nullptr;
  if (solo.ended) {
    const SoloEnd& e = solo.end;
    end = {{"eliminated", e.eliminated}, {"sets", e.sets}, {"lost_tribes", e.lost_tribes}, {"defences_overcome", e.defences_overcome},
           {"defences_held", e.defences_held}, {"unconquered", e.unconquered}, {"tokens_left", e.tokens_left}, {"total", e.total()}};
  }
  return {{"phase", setup ? "setup" : game.finished() ? "over" : "play"},
          {"rounds", solo.rounds},
          {"placing", placing},
          {"opposition", OppositionDocument(solo)},
          {"combos", combos},
          {"picks", solo.picks},
          {"declined", declined},
          {"lost_tribes_kept", solo.kept_lost_tribes},
          {"defences_overcome", solo.defences_overcome},
          {"end", end},
          {"terrains_missing", solo.ended ? missing : OrderedJson(nullptr)},
          {"score", game.SoloScore()},
          {"rating", solo.ended ? OrderedJson(ToString(game.SoloRating())) : OrderedJson(nullptr)}};
}

OrderedJson SoloResult(const Game& game) {
  const OrderedJson doc = SoloDocument(game);
  return {{"end", doc["end"]},
          {"opposition", doc["opposition"]["total"]},
          {"score", doc["score"]},
          {"rating", doc["rating"]},
          {"terrains_missing", doc["terrains_missing"]}};
}

OrderedJson PlayDocument(const ReplayResult& replay) {
  const Game& game = replay.game;
  OrderedJson steps = OrderedJson::array();
  for (size_t i = 0; i < replay.steps.size(); ++i) {
    const Verdict& v = replay.steps[i];
    const bool ruled = i < replay.house_ruled.size() && replay.house_ruled[i];
    OrderedJson s = {{"i", i}, {"ok", v.ok() || ruled}};
    if (ruled) s["ruling"] = "house";
    if (!v.ok()) s["code"] = ToString(v.code), s["why"] = v.why;
    steps.push_back(s);
  }
  OrderedJson turns = OrderedJson::array();
  for (const TurnScore& t : game.scores()) {
    turns.push_back({{"round", t.round},
                     {"player", game.players()[t.player].name},
                     {"coins", {{"regions", t.coins.regions}, {"race", t.coins.race}, {"power", t.coins.power}, {"total", t.coins.total()}}}});
  }
  OrderedJson coins = OrderedJson::object(), hands = OrderedJson::object(), winners = OrderedJson::array();
  for (int p = 0; p < game.player_count(); ++p) {
    coins[game.players()[p].name] = game.players()[p].coins;
    hands[game.players()[p].name] = game.HandOf(p);
  }
  const std::vector<int> won = game.Winners();
  for (int p : won) winners.push_back(game.players()[p].name);
  OrderedJson final_doc = {{"round", game.round()},
                    {"finished", game.finished()},
                    {"winner", won.size() == 1 ? OrderedJson(game.players()[won[0]].name) : OrderedJson(nullptr)},
                    {"winners", winners},
                    {"coins", coins},
                    {"hands", hands},
                    {"regions", RegionsDocument(game)}};
  if (game.solo()) final_doc["solo"] = SoloDocument(game);
  return {{"steps", steps}, {"turns", turns}, {"final", final_doc}};
}

}  // namespace swref::engine
