// House rulings (Game::ApplyHouseRuling, the record's `"ruling": "house"`): a conquest the rules reject that the
// players accept stands as it lies on the table; what cannot lie on a table is refused.
#include <gtest/gtest.h>

#include "engine/replay.h"

namespace swref::engine {
namespace {

using nlohmann::json;

json RecordWith(const std::string& actions) {
  return {{"format", "smallworld-record/1"}, {"map", "2p"}, {"players", {"Ann", "Bob"}}, {"races", {"ratmen"}}, {"powers", {"merchant"}},
          {"actions", json::parse(actions)}};
}

TEST(HouseRuling, ParsesAndWritesTheRuling) {
  auto record = ParseRecord(RecordWith(R"([{"player": "Ann", "do": "pick", "slot": 0},
    {"player": "Ann", "do": "conquer", "region": 9, "ruling": "house"}])"));
  ASSERT_TRUE(record.ok()) << record.error();
  EXPECT_TRUE(record->actions[1].house_ruling);
  EXPECT_FALSE(record->actions[0].house_ruling);
  EXPECT_EQ(ToJson(*record)["actions"][1]["ruling"], "house");
  EXPECT_FALSE(ToJson(*record)["actions"][0].contains("ruling"));
}

TEST(HouseRuling, RejectsAnotherRuling) {
  auto record = ParseRecord(RecordWith(R"([{"player": "Ann", "do": "conquer", "region": 9, "ruling": "maybe"}])"));
  ASSERT_FALSE(record.ok());
  EXPECT_EQ(record.error(), "record.actions[0].ruling: expected \"house\" (a conquest accepted against the rules), got \"maybe\"");
  auto other = ParseRecord(RecordWith(R"([{"player": "Ann", "do": "end_turn", "ruling": "house"}])"));
  EXPECT_FALSE(other.ok());
}

TEST(HouseRuling, AcceptedConquestStands) {
  // A first conquest inland (9 does not touch the edge), accepted by the players.
  auto record = ParseRecord(RecordWith(R"([{"player": "Ann", "do": "pick", "slot": 0},
    {"player": "Ann", "do": "conquer", "region": 9, "ruling": "house"}, {"player": "Ann", "do": "conquer", "region": 14}])"));
  ASSERT_TRUE(record.ok()) << record.error();
  auto replay = Replay(*record, ".");
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(replay->steps[1].code, Code::kNotEdgeEntry);
  ASSERT_EQ(replay->house_ruled.size(), 3u);
  EXPECT_TRUE(replay->house_ruled[1]);
  EXPECT_EQ(replay->game.board()[9].tokens, 2);
  EXPECT_TRUE(replay->steps[2].ok()) << replay->steps[2].why;  // 14 touches 9: the game goes on from the ruling
  const json doc = json::parse(PlayDocument(*replay).dump());
  EXPECT_EQ(doc["steps"][1], json::parse(R"({"i": 1, "ok": true, "ruling": "house", "code": "not_edge_entry",
    "why": "the Ratmen hold no region, so this is a first conquest: region 9 neither touches the edge of the board nor a sea that does"})"));
  EXPECT_FALSE(doc["steps"][2].contains("ruling"));
}

TEST(HouseRuling, LegalConquestMarkedHouseIsJustApplied) {
  auto record = ParseRecord(RecordWith(R"([{"player": "Ann", "do": "pick", "slot": 0},
    {"player": "Ann", "do": "conquer", "region": 1, "ruling": "house"}])"));
  auto replay = Replay(*record, ".");
  ASSERT_TRUE(replay.ok());
  EXPECT_TRUE(replay->steps[1].ok());
  EXPECT_FALSE(replay->house_ruled[1]);
  EXPECT_EQ(replay->game.board()[1].tokens, 2);
}

TEST(HouseRuling, RefusesWhatCannotLieOnATable) {
  // More tokens than in hand (10), and a conquest on a decline turn (the declined race has no hand).
  auto record = ParseRecord(RecordWith(R"([{"player": "Ann", "do": "pick", "slot": 0},
    {"player": "Ann", "do": "conquer", "region": 9, "tokens": 11, "ruling": "house"},
    {"player": "Ann", "do": "conquer", "region": 1}, {"player": "Ann", "do": "redeploy", "tokens": {"1": 10}}, {"player": "Ann", "do": "end_turn"},
    {"player": "Bob", "do": "pick", "slot": 0}, {"player": "Bob", "do": "end_turn"},
    {"player": "Ann", "do": "decline"}, {"player": "Ann", "do": "conquer", "region": 2, "ruling": "house"}])"));
  ASSERT_TRUE(record.ok()) << record.error();
  auto replay = Replay(*record, ".");
  ASSERT_TRUE(replay.ok());
  EXPECT_FALSE(replay->house_ruled[1]);
  EXPECT_EQ(replay->steps[1].why,
            "the Ratmen hold no region, so this is a first conquest: region 9 neither touches the edge of the board nor a sea that does; "
            "it cannot stand as a house ruling: 11 tokens placed, but only 10 in hand");
  EXPECT_EQ(replay->game.board()[9].tokens, 0);
  EXPECT_FALSE(replay->house_ruled[8]);
  EXPECT_EQ(replay->steps[8].code, Code::kWrongPhase);
  EXPECT_EQ(replay->steps[8].why, "no conquest on a decline turn: it ends after scoring; it cannot stand as a house ruling: Ann has no race that could have conquered it");
  EXPECT_FALSE(json::parse(PlayDocument(*replay).dump())["steps"][8]["ok"].get<bool>());
}

}  // namespace
}  // namespace swref::engine
