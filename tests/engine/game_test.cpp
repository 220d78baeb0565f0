// Unit tests of the Game API: setup, the verdict sentences with their numbers, the column economy.
// The rules themselves are covered scenario by scenario in scenario_test.cpp.
#include "engine/game.h"

#include <gtest/gtest.h>

#include "engine/replay.h"

namespace swref::engine {
namespace {

using nlohmann::json;

ReplayResult Play(const std::string& actions, const std::string& races = R"(["ratmen", "amazons", "dwarves", "elves", "ghouls", "giants"])",
                  const std::string& powers = R"(["merchant", "flying", "alchemist", "berserk", "commando", "forest"])") {
  const json doc = json::parse(R"({"format": "smallworld-record/1", "map": "2p", "players": ["Ann", "Bob"], "races": )" + races +
                               R"(, "powers": )" + powers + R"(, "actions": )" + actions + "}");
  auto record = ParseRecord(doc);
  EXPECT_TRUE(record.ok()) << record.error();
  auto replay = Replay(*record, ".");
  EXPECT_TRUE(replay.ok()) << replay.error();
  return std::move(*replay);
}

TEST(Game, SetupPlacesLostTribesMountainsAndCoins) {
  ReplayResult r = Play("[]");
  const Game& g = r.game;
  EXPECT_EQ(g.column().size(), 6u);
  EXPECT_EQ(g.column()[0].race, Race::kRatmen);
  EXPECT_EQ(g.column()[1].power, Power::kFlying);
  EXPECT_EQ(g.board()[3].lost_tribe, 1);
  EXPECT_EQ(g.board()[5].mountain, 1);
  EXPECT_EQ(g.board()[7].lost_tribe + g.board()[7].mountain, 0);
  for (const auto& p : g.players()) EXPECT_EQ(p.coins, 5);
  EXPECT_EQ(g.round(), 1);
  EXPECT_EQ(g.current_player(), 0);
  EXPECT_EQ(g.CheckConsistency(), "");
}

TEST(Game, NotEnoughTokensGivesTheCostBreakdown) {
  ReplayResult r = Play(R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 3, "tokens": 2}])");
  ASSERT_FALSE(r.steps[1].ok());
  EXPECT_EQ(r.steps[1].code, Code::kNotEnoughTokens);
  EXPECT_EQ(r.steps[1].why, "region 3 needs 3 tokens: 2 + 1 lost tribe; 2 placed");
}

TEST(Game, RejectedActionChangesNothing) {
  ReplayResult r = Play(R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 4}])");
  const nlohmann::ordered_json before = PlayDocument(r)["final"];
  Action bad;
  bad.type = ActionType::kConquer;
  bad.player = 0;
  bad.region = 12;  // not adjacent to 4
  const Verdict v = r.game.Apply(bad);
  EXPECT_EQ(v.code, Code::kNotAdjacent);
  EXPECT_EQ(v.why, "region 12 does not touch any Ratmen region");
  EXPECT_EQ(PlayDocument(r)["final"], before);
}

TEST(Game, PickPaysTheCombosAboveAndTakesTheirCoins) {
  ReplayResult r = Play(R"([{"player": "Ann", "do": "pick", "slot": 2}, {"player": "Ann", "do": "end_turn"},
                            {"player": "Bob", "do": "pick", "slot": 1}])");
  ASSERT_TRUE(r.steps[0].ok());
  // Ann paid 2 (slots 0, 1) and scored 2 (Alchemist); Bob paid 1 on slot 0 and took the 1 coin Ann left on slot 1.
  EXPECT_EQ(r.game.players()[0].coins, 5 - 2 + 2);
  EXPECT_EQ(r.game.players()[1].coins, 5);
  EXPECT_EQ(r.game.column()[0].coins, 2);  // Ratmen: 1 from Ann, 1 from Bob
  EXPECT_EQ(r.game.civ(Race::kDwarves).hand, 3 + 4);
  EXPECT_EQ(r.game.civ(Race::kAmazons).hand, 6 + 4 + 5);
}

TEST(Game, EndTurnBeforePickingIsTheWrongPhase) {
  ReplayResult r = Play(R"([{"player": "Ann", "do": "end_turn"}])");
  EXPECT_EQ(r.steps[0].code, Code::kWrongPhase);
  EXPECT_EQ(r.steps[0].why, "Ann has no active race: pick a combo first");
}

TEST(Game, NotYourTurnNamesBothPlayers) {
  ReplayResult r = Play(R"([{"player": "Bob", "do": "pick", "slot": 0}])");
  EXPECT_EQ(r.steps[0].code, Code::kNotYourTurn);
  EXPECT_EQ(r.steps[0].why, "it is Ann's turn, not Bob's");
}

TEST(Game, CostBreakdownDescribesDiscounts) {
  CostBreakdown c;
  c.mountain = 1, c.lost_tribe = 1, c.commando = 1;
  EXPECT_EQ(c.Describe(), "2 + 1 mountain + 1 lost tribe - 1 Commando");
}

TEST(Game, ReinforcementAttemptCommitsTheWholeHand) {
  // Ratmen + Merchant: 10 tokens. 9 on region 4 leaves 1; region 3 (lost tribe) needs 3: 2 short, the die shows 3.
  ReplayResult r = Play(R"([{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 4, "tokens": 9},
                            {"player": "Ann", "do": "conquer", "region": 3, "die": 3}, {"player": "Ann", "do": "conquer", "region": 9}])");
  ASSERT_TRUE(r.steps[1].ok()) << r.steps[1].why;
  ASSERT_TRUE(r.steps[2].ok()) << r.steps[2].why;
  EXPECT_EQ(r.game.board()[3].tokens, 1);
  EXPECT_EQ(r.steps[3].code, Code::kWrongPhase);  // the attempt was the last conquest of the turn
}

}  // namespace
}  // namespace swref::engine
