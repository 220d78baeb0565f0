#include "engine/map.h"

#include <gtest/gtest.h>

#include "tests/engine/error_of.h"

#include <nlohmann/json.hpp>

namespace swref::engine {
namespace {

using nlohmann::json;

struct MapFacts {
  std::string key;
  int players, turns, regions, lost_tribes, mountains, caverns;
};

// COMPONENTS.md, "Maps".
TEST(BuiltinMap, MatchesTheComponentsTable) {
  const MapFacts facts[] = {{"2p", 2, 10, 23, 9, 4, 4}, {"3p", 3, 10, 30, 10, 7, 5}, {"4p", 4, 9, 39, 14, 8, 7}, {"5p", 5, 8, 48, 18, 9, 9}};
  for (const MapFacts& f : facts) {
    auto map = BuiltinMap(f.key);
    ASSERT_TRUE(map.ok()) << map.error();
    const Map& m = **map;
    EXPECT_EQ(m.players, f.players);
    EXPECT_EQ(m.turns, f.turns);
    EXPECT_EQ(m.size(), f.regions);
    int lost = 0, mountains = 0, caverns = 0, magic = 0, mines = 0;
    for (const Region& r : m.regions) lost += r.lost_tribe, mountains += r.HasMountain(), caverns += r.cavern, magic += r.magic, mines += r.mine;
    EXPECT_EQ(lost, f.lost_tribes) << f.key;
    EXPECT_EQ(mountains, f.mountains) << f.key;
    EXPECT_EQ(caverns, f.caverns) << f.key;
    EXPECT_EQ(magic, f.caverns) << f.key;
    EXPECT_EQ(mines, f.caverns) << f.key;
  }
}

TEST(BuiltinMap, Adjacency2p) {
  auto map = BuiltinMap("2p");
  ASSERT_TRUE(map.ok());
  EXPECT_TRUE((*map)->Adjacent(0, 1));
  EXPECT_TRUE((*map)->Adjacent(1, 0));
  EXPECT_FALSE((*map)->Adjacent(0, 2));
  EXPECT_TRUE((*map)->regions[21].edge_entry);  // next to the border sea 22
  EXPECT_FALSE((*map)->regions[21].border);
  EXPECT_FALSE((*map)->regions[9].edge_entry);
  EXPECT_TRUE((*map)->regions[7].IsWater());
}

TEST(BuiltinMap, RejectsUnknownKey) {
  auto map = BuiltinMap("6p");
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().find("6p"), std::string::npos);
}

json SmallMap() {
  // 4 regions in a row along the top edge of the board, a sea at the end.
  return json::parse(R"({"name": "strip", "players": 2, "turns": 5,
    "regions": [{"id": 0, "terrain": "hill", "border": true}, {"id": 1, "terrain": "forest", "border": true},
                {"id": 2, "terrain": "farmland", "border": false}, {"id": 3, "terrain": "sea", "border": true}],
    "adjacency": [[0, 1], [1, 2], [2, 3], [0, 2]]})");
}

TEST(ParseMap, Nominal) {
  auto map = ParseMap(SmallMap(), "strip.json");
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_TRUE((*map)->regions[2].coastal);
  EXPECT_TRUE((*map)->regions[2].edge_entry);  // next to a border sea
  EXPECT_FALSE((*map)->regions[0].coastal);
}

TEST(ParseMap, RejectsANameThatIsNotAString) {  // found by fuzz_map: it threw json::type_error
  json doc = SmallMap();
  doc["name"] = 444444444444444;
  EXPECT_EQ(test::ErrorOf(ParseMap(doc, "m.json")), "m.json: name: expected a string");
}

TEST(ParseMap, RejectsDuplicateId) {
  json doc = SmallMap();
  doc["regions"][1]["id"] = 0;
  EXPECT_EQ(test::ErrorOf(ParseMap(doc, "m.json")), "m.json: regions[1].id: 0 is used twice");
}

TEST(ParseMap, RejectsUnknownTerrain) {
  json doc = SmallMap();
  doc["regions"][2]["terrain"] = "desert";
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("regions[2].terrain: unknown terrain \"desert\""), std::string::npos);
}

TEST(ParseMap, RejectsEdgeToUnknownRegion) {
  json doc = SmallMap();
  doc["adjacency"].push_back({1, 9});
  EXPECT_EQ(test::ErrorOf(ParseMap(doc, "m.json")), "m.json: adjacency[4]: 9 is not a region id");
}

TEST(ParseMap, RejectsDuplicateEdge) {
  json doc = SmallMap();
  doc["adjacency"].push_back({1, 0});
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("listed twice"), std::string::npos);
}

TEST(ParseMap, RejectsAsymmetricLists) {
  json doc = SmallMap();
  doc.erase("adjacency");
  doc["regions"][0]["adjacent"] = {1, 2};
  doc["regions"][1]["adjacent"] = {0, 2};
  doc["regions"][2]["adjacent"] = {1, 3};  // forgets 0
  doc["regions"][3]["adjacent"] = {2};
  EXPECT_EQ(test::ErrorOf(ParseMap(doc, "m.json")), "m.json: regions[0].adjacent lists 2 but regions[2].adjacent does not list 0");
}

TEST(ParseMap, RejectsDisconnected) {
  json doc = SmallMap();
  doc["adjacency"] = {{0, 1}, {0, 2}, {1, 2}};
  EXPECT_EQ(test::ErrorOf(ParseMap(doc, "m.json")), "m.json: the map is not connected: regions 3 cannot be reached from region 0");
}

TEST(ParseMap, RejectsNonPlanar) {
  // K5 with every region on the border: cannot be drawn on a board.
  json doc = {{"players", 2}, {"turns", 5}, {"regions", json::array()}, {"adjacency", json::array()}};
  for (int i = 0; i < 5; ++i) doc["regions"].push_back({{"id", i}, {"terrain", "hill"}, {"border", true}});
  for (int a = 0; a < 5; ++a)
    for (int b = a + 1; b < 5; ++b) doc["adjacency"].push_back({a, b});
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("not a planar graph"), std::string::npos);
}

TEST(ParseMap, RejectsWrongDerivedFlag) {
  json doc = SmallMap();
  doc["regions"][0]["edge_entry"] = false;
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("regions[0].edge_entry: should be true"), std::string::npos);
}

TEST(ParseMap, RejectsMissingBorderAndBadTypes) {
  json doc = SmallMap();
  doc["regions"][0].erase("border");
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("regions[0].border: missing"), std::string::npos);
  doc = SmallMap();
  doc["regions"][0]["cavern"] = "yes";
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("regions[0].cavern: expected true or false"), std::string::npos);
  doc = SmallMap();
  doc["players"] = 7;
  EXPECT_NE(test::ErrorOf(ParseMap(doc, "m.json")).find("players"), std::string::npos);
  EXPECT_NE(test::ErrorOf(ParseMap(json::array(), "m.json")).find("expected a JSON object"), std::string::npos);
}

TEST(LoadMap, ReadsAFileAndNamesMissingOnes) {
  auto missing = LoadMap("no/such/map.json", "/tmp");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().find("cannot open"), std::string::npos);
  auto builtin = LoadMap("3p", "/tmp");
  ASSERT_TRUE(builtin.ok());
  EXPECT_EQ((*builtin)->key, "3p");
}

}  // namespace
}  // namespace swref::engine
