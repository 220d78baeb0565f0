// Unit tests of SoloPlay's pieces outside the scenarios: the record's solo fields and their errors, the lost-tribe
// setups of rule 3, the placement requirements' matching, the ratings, and the engine's contract that a rejected
// action leaves the game unchanged and every listed legal action is accepted.
#include <gtest/gtest.h>

#include "tests/engine/error_of.h"

#include <filesystem>
#include <fstream>

#include "engine/legal.h"
#include "engine/random_game.h"
#include "engine/replay.h"
#include "engine/solo.h"

namespace swref::engine {
namespace {

using nlohmann::json;

json MinimalSolo() {
  return json::parse(R"({"format": "smallworld-record/1", "variant": "solo", "map": "2p", "players": ["Ann"], "seed": 1,
    "solo": {"coins": 5, "extra_round": false, "lost_tribes": [3, 6, 10, 11, 12, 13, 14, 16, 18],
             "opposition": [{"race": "trolls", "power": "alchemist"}, {"race": "elves", "power": "merchant"}, {"race": "ghouls", "power": "heroic"}],
             "combos": [{"race": "ratmen", "power": "forest"}, {"race": "amazons", "power": "wealthy"}, {"race": "humans", "power": "swamp"},
                        {"race": "dwarves", "power": "flying"}, {"race": "wizards", "power": "pillaging"}]},
    "actions": [{"player": "Ann", "do": "conquer", "region": 20},
                {"player": "Ann", "do": "conquer", "region": 9, "from": {"3": 2, "4": 1}, "hero": 4, "retreat": [10, 14]},
                {"player": "Ann", "do": "redeploy", "move": {"from": 3, "to": 4, "tokens": 2}, "holes": [{"from": 9, "to": 3, "tokens": 1}], "add": {"3": 1}},
                {"player": "Ann", "do": "erode", "race": "orcs", "regions": [5, 8]},
                {"player": "Ann", "do": "end_turn", "decline": true}]})");
}

std::string StartErrorOf(const json& doc) {
  auto r = ParseRecord(doc);
  if (!r.ok()) return "parse: " + r.error();
  return test::ErrorOf(StartGame(*r, "."));
}

TEST(SoloRecord, Nominal) {
  auto r = ParseRecord(MinimalSolo());
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->variant, "solo");
  EXPECT_EQ(r->solo.coins, 5);
  EXPECT_TRUE(r->solo.has_lost_tribes);
  ASSERT_EQ(r->solo.opposition.size(), 3u);
  EXPECT_EQ(r->solo.opposition[2].power, Power::kHeroic);
  const Action& attack = r->actions[1];
  EXPECT_EQ(attack.from.size(), 2u);
  EXPECT_EQ(attack.hero, 4);
  EXPECT_EQ(attack.retreat, (std::vector<int>{10, 14}));
  const Action& redeploy = r->actions[2];
  EXPECT_EQ(redeploy.move.from, 3);
  EXPECT_EQ(redeploy.move.tokens, 2);
  ASSERT_EQ(redeploy.hole_moves.size(), 1u);
  EXPECT_EQ(redeploy.add.size(), 1u);
  EXPECT_EQ(r->actions[3].type, ActionType::kErode);
  EXPECT_EQ(r->actions[3].race, static_cast<int>(Race::kOrcs));
  EXPECT_EQ(r->actions[3].regions, (std::vector<int>{5, 8}));
}

TEST(SoloRecord, Roundtrip) {
  auto r = ParseRecord(MinimalSolo());
  ASSERT_TRUE(r.ok());
  auto again = ParseRecord(ToJson(*r));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(ToJson(*again), ToJson(*r));
}

TEST(SoloRecord, RejectsXNamingTheField) {
  struct Case {
    std::string pointer;
    json value;
    std::string error;
  };
  const Case cases[] = {
      {"/players", json::array({"Ann", "Bob"}), "record.players: a solo record names exactly 1 player, got 2"},
      {"/solo/coins", 3, "record.solo.coins: expected 5, or 1 for the more challenging game, got 3"},
      {"/solo/extra_round", "yes", "record.solo.extra_round: expected true or false, got \"yes\""},
      {"/solo/lost_tribes/0", "a", "record.solo.lost_tribes[0]: expected an integer, got \"a\""},
      {"/solo/opposition/2/race", "hobbits", "record.solo.opposition[2].race: unknown id \"hobbits\""},
      {"/solo/opposition/1", "x", "record.solo.opposition[1]: expected {\"race\": id, \"power\": id}, got \"x\""},
      {"/solo/combos/4/power", 7, "record.solo.combos[4].power: expected a power id"},
      {"/solo/bogus", 1, "record.solo: unknown field \"bogus\" (coins, extra_round, lost_tribes, opposition, combos)"},
      {"/actions/1/from", json::object({{"x", 1}}),
       "record.actions[1].from: \"x\" is not a region id (keys are region ids as strings, e.g. \"12\")"},
      {"/actions/1/retreat", 4, "record.actions[1].retreat: expected an array of region ids, got 4"},
      {"/actions/2/move/tokens", -1, "record.actions[2].move.tokens: -1 is out of range 0..255"},
      {"/actions/2/holes/0/by", 1, "record.actions[2].holes[0]: unknown field \"by\" for a move"},
      {"/actions/3/race", "hobbits", "record.actions[3].race: unknown race \"hobbits\""},
      {"/actions/3/do", "raid",
       "record.actions[3].do: unknown action \"raid\" (pick, conquer, abandon, redeploy, withdraw, ally, decline, end_turn, erode)"},
  };
  for (const Case& c : cases) {
    json doc = MinimalSolo();
    doc[json::json_pointer(c.pointer)] = c.value;
    EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), c.error) << c.pointer;
  }
  json doc = MinimalSolo();
  doc["actions"][2]["move"].erase("tokens");
  EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), "record.actions[2].move.tokens: missing");
  doc = MinimalSolo();
  doc["actions"][3].erase("regions");
  EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), "record.actions[3].regions: missing");
}

// The solo fields stay unknown in a standard record, as they were before SoloPlay existed.
TEST(SoloRecord, StandardRecordsKeepTheirErrors) {
  json doc = json::parse(R"({"format": "smallworld-record/1", "map": "2p", "players": ["Ann", "Bob"],
    "actions": [{"player": "Ann", "do": "conquer", "region": 3, "from": {"4": 1}}]})");
  EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), "record.actions[0]: unknown field \"from\" for \"conquer\"");
  doc["actions"][0] = {{"player", "Ann"}, {"do", "erode"}, {"race", "orcs"}, {"regions", json::array()}};
  EXPECT_EQ(test::ErrorOf(ParseRecord(doc)), "record.actions[0].do: \"erode\" exists only in a solo record (\"variant\": \"solo\")");
  doc["actions"] = json::array();
  doc["solo"] = {{"coins", 99}};  // an unknown top-level field of a standard record is kept, not read
  auto r = ParseRecord(doc);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(ToJson(*r)["solo"]["coins"], 99);
}

TEST(SoloStart, RejectsXNamingTheField) {
  json doc = MinimalSolo();
  doc["solo"]["opposition"].erase(2);
  EXPECT_EQ(StartErrorOf(doc), "record.solo.opposition: 3 combos expected, 2 given");
  doc = MinimalSolo();
  doc["solo"]["combos"][0]["race"] = "trolls";
  EXPECT_EQ(StartErrorOf(doc), "record.solo.combos[0].race: \"trolls\" is used twice");
  doc = MinimalSolo();
  doc["map"] = "3p";
  doc["solo"].erase("opposition");
  doc["solo"]["lost_tribes"] = {2, 7, 9, 11, 13, 19, 21, 22, 23, 29};
  EXPECT_EQ(StartErrorOf(doc),
            "record.solo.lost_tribes[0]: region 2 is a mountain; lost tribes stand on mountains only on the 2-player board");
  doc["solo"]["lost_tribes"] = {5, 7, 9, 11, 13, 19, 21, 22, 23};
  EXPECT_EQ(StartErrorOf(doc), "record.solo.lost_tribes: 9 regions listed; map 3p has 10 lost tribes");
  doc["solo"]["lost_tribes"][0] = 14;
  doc["solo"]["lost_tribes"].push_back(29);
  EXPECT_EQ(StartErrorOf(doc), "record.solo.lost_tribes[0]: region 14 is a lake; lost tribes stand on land");
}

TEST(CheckLostTribes, PrintedAlternateAndOneMovedPerType) {
  auto map = BuiltinMap("3p");
  ASSERT_TRUE(map.ok());
  const std::vector<int> printed = {5, 7, 9, 11, 13, 19, 21, 22, 23, 29};
  EXPECT_EQ(CheckLostTribes(**map, printed), "");
  std::vector<int> moved = printed;
  moved[0] = 28;  // forest 5 -> forest 28 (3b)
  EXPECT_EQ(CheckLostTribes(**map, moved), "");
  moved[9] = 1;  // and forest 29 -> forest 1: a second forest moved
  EXPECT_NE(CheckLostTribes(**map, moved).find("2 forest lost tribes moved (at most 1 per land type)"), std::string::npos);
  // 3a: every land region without the symbol, mountains excepted (10 of them on the 3-player map).
  const std::vector<int> alternate = {1, 3, 4, 6, 8, 16, 18, 20, 25, 28};
  EXPECT_EQ(CheckLostTribes(**map, alternate), "");
  std::vector<int> back = alternate;
  back[0] = 5;  // 3b after 3a: the forest one on 1 moved back to forest 5
  EXPECT_EQ(CheckLostTribes(**map, back), "");
  back[1] = 7;  // farmland 3 -> farmland 7 as well: fine, another land type
  EXPECT_EQ(CheckLostTribes(**map, back), "");
  back[9] = 19;  // and forest 28 -> forest 19: two forest ones back on symbols
  EXPECT_NE(CheckLostTribes(**map, back).find("not a setup of rule 3"), std::string::npos);
}

TEST(OppositionCount, PerBoard) {
  EXPECT_EQ(OppositionCount(2), 3);
  EXPECT_EQ(OppositionCount(3), 5);
  EXPECT_EQ(OppositionCount(4), 6);
  EXPECT_EQ(OppositionCount(5), 8);
}

TEST(RatingFor, EveryBand) {
  EXPECT_EQ(RatingFor(-20, true), Rating::kGameLoss);
  EXPECT_EQ(RatingFor(60, true), Rating::kGameLoss);
  EXPECT_EQ(RatingFor(61, true), Rating::kEasyVictory);
  EXPECT_EQ(RatingFor(64, true), Rating::kEasyVictory);
  EXPECT_EQ(RatingFor(65, true), Rating::kGameVictory);
  EXPECT_EQ(RatingFor(68, true), Rating::kGameVictory);
  EXPECT_EQ(RatingFor(69, true), Rating::kMajorVictory);
  EXPECT_EQ(RatingFor(72, true), Rating::kMajorVictory);
  EXPECT_EQ(RatingFor(73, true), Rating::kCompleteVictory);
  EXPECT_EQ(RatingFor(76, true), Rating::kCompleteVictory);
  EXPECT_EQ(RatingFor(77, true), Rating::kMasterVictory);
  EXPECT_EQ(RatingFor(200, false), Rating::kGameLoss);
  EXPECT_EQ(ToString(Rating::kCompleteVictory), "Complete Victory");
}

SetupEvent Conquest(int region, bool lost_tribe = false) {
  SetupEvent e;
  e.region = region;
  e.lost_tribe = lost_tribe;
  return e;
}

// Regions of the 2-player map: 11 farmland, 4 hill, 9 farmland, 3 swamp (lost tribe), 6 hill (lost tribe).
TEST(EvaluateRequirements, RaceAndPowerConsideredSeparately) {
  auto map = BuiltinMap("2p");
  ASSERT_TRUE(map.ok());
  const Map& m = **map;
  Requirements r = EvaluateRequirements(Race::kOrcs, Power::kPillaging, {Conquest(3, true)}, m);
  EXPECT_EQ(r.race, Need::kMet);
  EXPECT_EQ(r.power, Need::kUnmet);
  r = EvaluateRequirements(Race::kOrcs, Power::kPillaging, {Conquest(3, true), Conquest(6, true)}, m);
  EXPECT_EQ(r.unmet(), 0);
  r = EvaluateRequirements(Race::kHumans, Power::kMounted, {Conquest(11), Conquest(4)}, m);  // one farmland, one hill
  EXPECT_EQ(r.race, Need::kMet);
  EXPECT_EQ(r.power, Need::kUnmet);
  r = EvaluateRequirements(Race::kHumans, Power::kMounted, {Conquest(11), Conquest(4), Conquest(9)}, m);
  EXPECT_EQ(r.unmet(), 0);
  r = EvaluateRequirements(Race::kElves, Power::kMerchant, {Conquest(11)}, m);
  EXPECT_EQ(r.race, Need::kNone);
  EXPECT_EQ(r.power, Need::kNone);
}

TEST(EvaluateRequirements, FlyingAndDiplomatExceptions) {
  auto map = BuiltinMap("2p");
  const Map& m = **map;
  SetupEvent mountain = Conquest(19);
  mountain.mountain = mountain.first = true;
  SetupEvent ability = Conquest(20);
  ability.giants = ability.next_to_own = true;
  SetupEvent touching = Conquest(13, true);
  touching.next_to_own = true;
  Requirements r = EvaluateRequirements(Race::kGiants, Power::kFlying, {mountain, ability}, m);
  EXPECT_EQ(r.unmet(), 0) << "one touching conquest the Giants need is excused";
  r = EvaluateRequirements(Race::kGiants, Power::kFlying, {mountain, ability, touching}, m);
  EXPECT_EQ(r.power, Need::kUnmet);
  r = EvaluateRequirements(Race::kGiants, Power::kFlying, {mountain}, m);
  EXPECT_EQ(r.race, Need::kUnmet) << "a mountain without the ability";
  r = EvaluateRequirements(Race::kOrcs, Power::kDiplomat, {Conquest(3, true)}, m);
  EXPECT_EQ(r.unmet(), 0) << "the Orcs need that lost tribe";
  r = EvaluateRequirements(Race::kOrcs, Power::kDiplomat, {Conquest(3, true), Conquest(6, true)}, m);
  EXPECT_EQ(r.power, Need::kUnmet);
  EXPECT_TRUE(MeetsRequirement(Race::kOrcs, Power::kPillaging, {Conquest(3, true)}, Conquest(6, true), m));
  EXPECT_FALSE(MeetsRequirement(Race::kOrcs, Power::kPillaging, {Conquest(3, true), Conquest(6, true)}, Conquest(16, true), m));
}

ReplayResult ReplayScenario(const std::string& name) {
  std::ifstream in(std::filesystem::path(SWREF_SOURCE_DIR) / "tests/engine/scenarios/solo" / (name + ".json"));
  const json doc = json::parse(in);
  auto record = ParseRecord(doc.at("record"));
  EXPECT_TRUE(record.ok()) << record.error();
  auto replay = Replay(*record, ".");
  EXPECT_TRUE(replay.ok()) << replay.error();
  return std::move(*replay);
}

// A rejected action, in the setup or in play, changes nothing (Apply checks completely before it changes).
TEST(SoloGame, RejectedActionLeavesTheGameUnchanged) {
  ReplayResult r = ReplayScenario("play_conquest_retreat_2p");
  Game& game = r.game;
  const std::string before = PlayDocument(r)["final"].dump();
  Action a;
  a.type = ActionType::kConquer;
  a.region = 9;
  a.from = {{9, 1}};  // from the target itself
  Action b;
  b.type = ActionType::kErode;
  b.race = static_cast<int>(Race::kRatmen);
  Action c;
  c.type = ActionType::kRedeploy;
  c.move = {3, 1, 4};  // not neighbours
  for (const Action& bad : {a, b, c}) {
    Game copy = game;
    EXPECT_FALSE(game.Apply(bad).ok());
    EXPECT_EQ(game.Check(bad), copy.Check(bad));
  }
  ReplayResult after{{}, game};
  EXPECT_EQ(PlayDocument(after)["final"].dump(), before);
  EXPECT_EQ(game.CheckConsistency(), "");
}

// The referee drives a solo game like a standard one: every listed action is accepted, in the setup and in play.
TEST(SoloGame, EveryListedActionIsAccepted) {
  for (const char* name : {"setup_requirements_3p_a", "play_powers_erosion_2p"}) {
    ReplayResult r = ReplayScenario(name);
    std::vector<Action> legal;
    EnumerateLegal(r.game, &legal);
    EXPECT_FALSE(legal.empty()) << name;
    for (const Action& a : legal) {
      Game copy = r.game;
      const Verdict v = copy.Apply(a);
      EXPECT_TRUE(v.ok()) << name << ": " << ToJson(a, {"Ann"}).dump() << ": " << v.why;
      EXPECT_EQ(copy.CheckConsistency(), "");
    }
  }
}

}  // namespace
}  // namespace swref::engine

namespace swref::engine {
namespace {

// After a failed attack, the attackers come back next to the region attacked (play 2.b.ii): the in-decline Ghouls'
// next to theirs, even when the active race's attack failed too in the same turn (each keeps its own failed region).
TEST(SoloGame, FailedAttacksReturnNextToTheirOwnRegion) {
  int ghoul_returns = 0, both_failed = 0;
  for (const std::string& key : BuiltinMapKeys()) {
    auto map = BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      int ghouls_failed = -1;
      bool active_failed = false;
      auto played = PlayRandomSoloGame(*map, seed, [&](const Game& game, const Action& a) {
        const int ghouls = game.DeclinedGhouls(0);
        if (a.type == ActionType::kEndTurn) ghouls_failed = -1, active_failed = false;
        if (a.type == ActionType::kConquer && a.die >= 0) {
          const bool failed = game.board()[a.region].race != (a.with == With::kGhouls ? ghouls : game.players()[0].active);
          if (failed && a.with == With::kGhouls) ghouls_failed = a.region;
          if (failed && a.with != With::kGhouls) active_failed = true;
        }
        if (a.type != ActionType::kRedeploy || a.with != With::kGhouls || ghouls_failed < 0 || a.add.empty()) return;
        bool near = false;  // a Ghoul region next to the failed one: the tokens go there
        for (int n : game.map().neighbours[ghouls_failed]) near = near || game.board()[n].race == static_cast<int>(Race::kGhouls);
        for (const Placement& p : a.add) EXPECT_TRUE(!near || game.map().Adjacent(p.region, ghouls_failed)) << key << " seed " << seed;
        ++ghoul_returns;
        both_failed += active_failed;
      });
      ASSERT_TRUE(played.ok()) << played.error();
    }
  }
  EXPECT_GT(ghoul_returns, 0);
  EXPECT_GT(both_failed, 0);
}

}  // namespace
}  // namespace swref::engine

namespace swref::engine {
namespace {

// A solo action the rules reject never stands as a house ruling (the rules are the opponent): the game is unchanged.
TEST(SoloGame, NoHouseRulings) {
  ReplayResult r = ReplayScenario("play_conquest_retreat_2p");
  Game& game = r.game;
  Action a;
  a.type = ActionType::kConquer;
  a.region = 9;
  a.from = {{9, 1}};  // from the target itself: rejected
  const std::string before = PlayDocument(r)["final"].dump();
  bool applied = true;
  const Verdict v = game.ApplyHouseRuling(a, &applied);
  EXPECT_FALSE(applied);
  EXPECT_FALSE(v.ok());
  EXPECT_NE(v.why.find("never accepted against them"), std::string::npos) << v.why;
  ReplayResult after{{}, game};
  EXPECT_EQ(PlayDocument(after)["final"].dump(), before);
}

}  // namespace
}  // namespace swref::engine
