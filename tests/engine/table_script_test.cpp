// The table script (engine/table_script.h): the still boards a camera sees while a record is played, the events
// told in between, an illegal conquest shown and taken back, and the picture of an attempted conquest.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/table_script.h"

namespace swref::engine {
namespace {

using nlohmann::json;

bool Same(const Board& a, const Board& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(RegionState)) == 0;
}

Record Make(const std::string& actions) {
  json doc = {{"format", "smallworld-record/1"}, {"map", "2p"}, {"players", {"Ann", "Bob"}}, {"races", {"ratmen"}}, {"powers", {"merchant"}},
              {"actions", json::parse(actions)}};
  auto record = ParseRecord(doc);
  EXPECT_TRUE(record.ok()) << record.error();
  return *record;
}

TEST(TableScript, Nominal) {
  const Record record = Make(R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 10}, {"player": "Ann", "do": "conquer", "region": 2, "die": 0},
    {"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 5}}, {"player": "Ann", "do": "end_turn"}])");
  auto script = ScriptTable(record, ".");
  ASSERT_TRUE(script.ok()) << script.error();
  // set-up; conquest of 1; the not-adjacent 10 shown and taken back; 2 with the die; the redeploy
  std::vector<SceneKind> kinds;
  std::vector<int> steps;
  for (const TableScene& s : script->scenes) kinds.push_back(s.kind), steps.push_back(s.step);
  EXPECT_EQ(kinds, (std::vector<SceneKind>{SceneKind::kSetup, SceneKind::kMove, SceneKind::kAttempt, SceneKind::kTakeBack, SceneKind::kMove,
                                           SceneKind::kMove}));
  EXPECT_EQ(steps, (std::vector<int>{-1, 1, 2, 2, 3, 4}));
  EXPECT_EQ(script->scenes[2].board[10].tokens, 3);
  EXPECT_TRUE(Same(script->scenes[3].board, script->scenes[1].board));
  ASSERT_EQ(script->verdicts.size(), 6u);
  EXPECT_EQ(script->verdicts[2].code, Code::kNotAdjacent);
  // events: the pick before any move, the die before its conquest is seen, the end of the turn after the redeploy
  ASSERT_EQ(script->events.size(), 3u);
  EXPECT_EQ(script->events[0].after_scene, 0);
  EXPECT_EQ(EventJson(script->events[0], record.players).dump(), R"({"player":"Ann","do":"pick","slot":0})");
  EXPECT_TRUE(script->events[1].die);
  EXPECT_EQ(script->events[1].after_scene, 3);
  EXPECT_EQ(EventJson(script->events[1], record.players).dump(), R"({"player":"Ann","do":"die","face":0})");
  EXPECT_EQ(script->events[2].after_scene, 5);
  ASSERT_EQ(script->turns.size(), 1u);
  EXPECT_EQ(script->turns[0].coins.total(), 4);  // 2 regions + Merchant 2
}

TEST(TableScript, AttemptedFirstConquestReadiesTheTroops) {
  const Record record = Make(R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 1},
    {"player": "Ann", "do": "conquer", "region": 2}, {"player": "Ann", "do": "redeploy", "tokens": {"1": 5, "2": 5}},
    {"player": "Ann", "do": "end_turn"}, {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "end_turn"}])");
  auto game = StartGame(record, ".");
  for (const Action& a : record.actions) ASSERT_TRUE(game->Apply(a).ok());
  Action bad;
  bad.type = ActionType::kConquer, bad.player = 0, bad.region = 10;
  const Board board = AttemptedBoard(*game, bad);
  EXPECT_EQ(board[1].tokens, 1);  // 5 -> 1: the other 4 are in hand, as at a legal first conquest
  EXPECT_EQ(board[2].tokens, 1);
  EXPECT_EQ(board[10].race, static_cast<int>(Race::kRatmen));
  EXPECT_EQ(board[10].tokens, 3);
  EXPECT_EQ(board[10].lost_tribe, 0);
  EXPECT_EQ(game->board()[1].tokens, 5);  // the game itself is untouched
}

TEST(TableScript, AttemptedConversionAndDragon) {
  auto game = StartGame(Make(R"([])"), ".");
  Action a;
  a.type = ActionType::kConquer, a.player = 0, a.region = 1, a.with = With::kSorcery;
  EXPECT_TRUE(Same(AttemptedBoard(*game, a), game->board()));  // Ann has no race yet: nothing to put down
  ASSERT_TRUE(game->Apply(ParseAction(json::parse(R"({"player": "Ann", "do": "pick", "slot": 0})"), {"Ann", "Bob"}, "a").value()).ok());
  const Board converted = AttemptedBoard(*game, a);
  EXPECT_EQ(converted[1].tokens, 1);
  a.with = With::kDragon;
  const Board dragon = AttemptedBoard(*game, a);
  EXPECT_EQ(dragon[1].tokens, 1);
  EXPECT_EQ(dragon[1].dragon, 1);
  a.with = With::kNone, a.die = 2;
  EXPECT_TRUE(Same(AttemptedBoard(*game, a), game->board()));  // a reinforcement attempt puts nothing down before the roll
}

TEST(TableScript, RejectsARecordWhoseGameCannotStart) {
  Record record = Make("[]");
  record.map = "nowhere.json";
  EXPECT_FALSE(ScriptTable(record, ".").ok());
}

}  // namespace
}  // namespace swref::engine
