#include "engine/record.h"

#include <gtest/gtest.h>

#include "tests/engine/error_of.h"

namespace swref::engine {
namespace {

using nlohmann::json;

json Minimal() {
  return json::parse(R"({"format": "smallworld-record/1", "map": "2p", "players": ["Ann", "Bob"], "seed": 7,
    "races": ["ratmen"], "powers": ["merchant"],
    "actions": [{"player": "Ann", "do": "pick", "slot": 0}, {"player": "Ann", "do": "conquer", "region": 3},
                {"player": "Ann", "do": "conquer", "region": 9, "die": 2},
                {"player": "Ann", "do": "redeploy", "tokens": {"3": 2, "9": 1}, "encampments": {"3": 1}, "heroes": [3, 9], "fortress": 3},
                {"player": "Bob", "do": "withdraw", "tokens": {"4": 1}}, {"player": "Ann", "do": "ally", "target": "Bob"},
                {"player": "Ann", "do": "conquer", "region": 5, "with": "ghouls", "tokens": 4},
                {"player": "Ann", "do": "end_turn", "decline": true}, {"player": "Ann", "do": "decline"},
                {"player": "Ann", "do": "abandon", "region": 2}]})");
}

TEST(ParseRecord, Nominal) {
  auto r = ParseRecord(Minimal());
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->players.size(), 2u);
  EXPECT_EQ(r->seed, 7u);
  EXPECT_EQ(r->races, std::vector<Race>{Race::kRatmen});
  ASSERT_EQ(r->actions.size(), 10u);
  EXPECT_EQ(r->actions[2].die, 2);
  EXPECT_EQ(r->actions[3].placement.size(), 2u);
  EXPECT_TRUE(r->actions[3].has_encampments);
  EXPECT_EQ(r->actions[3].heroes, (std::vector<int>{3, 9}));
  EXPECT_EQ(r->actions[4].player, 1);
  EXPECT_EQ(r->actions[5].target, 1);
  EXPECT_EQ(r->actions[6].with, With::kGhouls);
  EXPECT_TRUE(r->actions[7].decline);
}

TEST(ParseRecord, Roundtrip) {
  auto r = ParseRecord(Minimal());
  ASSERT_TRUE(r.ok());
  auto again = ParseRecord(ToJson(*r));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(ToJson(*again), ToJson(*r));
}

TEST(ParseRecord, KeepsUnknownTopLevelFields) {
  json doc = Minimal();
  doc["referee"] = {{"version", 1}};
  auto r = ParseRecord(doc);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToJson(*r)["referee"]["version"], 1);
}

TEST(ParseRecord, RejectsXNamingTheField) {
  struct Case {
    std::string pointer;
    json value;
    std::string error;
  };
  const Case cases[] = {
      {"/format", "smallworld-record/2", "record.format: expected \"smallworld-record/1\", got \"smallworld-record/2\""},
      {"/players/1", "Ann", "record.players[1]: \"Ann\" is named twice"},
      {"/players", json::array({"Ann"}), "record.players: 2 to 5 players, got 1"},
      {"/seed", -3, "record.seed: expected an integer >= 0, got -3"},
      {"/races/0", "hobbits", "record.races[0]: unknown id \"hobbits\""},
      {"/actions/1/region", "x", "record.actions[1].region: expected an integer, got \"x\""},
      {"/actions/1/do", "attack", "record.actions[1].do: unknown action \"attack\" (pick, conquer, abandon, redeploy, withdraw, ally, decline, end_turn)"},
      {"/actions/0/player", "Cid", "record.actions[0].player: \"Cid\" is not one of the record's players"},
      {"/actions/2/die", 6, "record.actions[2].die: 6 is out of range 0..3 (the die's faces are 0, 0, 0, 1, 2, 3)"},
      {"/actions/3/tokens", json::object({{"three", 2}}), "record.actions[3].tokens: \"three\" is not a region id (keys are region ids as strings, e.g. \"12\")"},
      {"/actions/3/tokens", json::object({{"3", -1}}), "record.actions[3].tokens.3: -1 is out of range 0..255"},
      {"/actions/6/with", "magic", "record.actions[6].with: expected \"dragon\", \"sorcery\" or \"ghouls\", got \"magic\""},
      {"/actions/0/slots", 1, "record.actions[0]: unknown field \"slots\" for \"pick\""},
      {"/actions/7/decline", "yes", "record.actions[7].decline: expected true or false, got \"yes\""},
      {"/variant", "solo", "record.players: a solo record names exactly 1 player, got 2"},
      {"/variant", "duo", "record.variant: expected \"standard\" or \"solo\", got \"duo\""},
      {"/actions", json::object(), "record.actions: expected an array"},
  };
  for (const Case& c : cases) {
    json doc = Minimal();
    doc[json::json_pointer(c.pointer)] = c.value;
    EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), c.error) << c.pointer;
  }
  json doc = Minimal();
  doc["actions"][1].erase("region");
  EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), "record.actions[1].region: missing");
  doc = Minimal();
  doc["actions"][2]["with"] = "dragon";
  EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), "record.actions[2].die: no die is rolled for a conquest with the dragon");
  EXPECT_EQ(test::ErrorOf(ParseRecord(json::array())), "record: expected a JSON object");
}

// The documented limit on a record's actions (docs/architecture.md, Limits); its file size: json_input_test.cpp.
TEST(ParseRecord, RejectsMoreActionsThanTheLimit) {
  json doc = Minimal();
  doc["actions"] = json::array();
  for (size_t i = 0; i <= kMaxRecordActions; ++i) doc["actions"].push_back({{"player", "Ann"}, {"do", "end_turn"}});
  EXPECT_EQ(ParseRecord(doc).error(), "record.actions: more than 100000 actions");
  doc["actions"].erase(doc["actions"].size() - 1);
  EXPECT_TRUE(ParseRecord(doc).ok());
}

TEST(ParseRecord, UnknownAllyIsARuleMatterNotMalformed) {
  json doc = Minimal();
  doc["actions"][5]["target"] = "Cid";
  auto r = ParseRecord(doc);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->actions[5].target, -2);
}

TEST(StartGame, RejectsWrongPlayerCountForTheMap) {
  auto r = ParseRecord(Minimal());
  r->map = "3p";
  auto game = StartGame(*r, ".");
  ASSERT_FALSE(game.ok());
  EXPECT_EQ(game.error(), "record.players: map 3p is for 3 players; 2 are named");
  r->map = "nowhere.json";
  game = StartGame(*r, "/tmp");
  ASSERT_FALSE(game.ok());
  EXPECT_NE(game.error().find("record.map: /tmp/nowhere.json: cannot open the map file"), std::string::npos);
}

}  // namespace
}  // namespace swref::engine
