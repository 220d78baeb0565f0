// SoloPlay scenario tests: hand-written solo records (tests/engine/scenarios/solo/*.json) replayed through the
// engine and compared with exact expected verdicts, coins, regions and the `final.solo` part (the opposition's
// score, the kept tokens, the end items, the rating). Each scenario names the numbered rules of the SoloPlay text
// (shared seeds/003) it covers; the expectations were derived by hand from that text and docs/solo.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "engine/replay.h"
#include "tests/engine/scenario_final.h"

namespace swref::engine {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> SoloScenarioFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(SWREF_SOURCE_DIR) / "tests/engine/scenarios/solo"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Every key of `expected` has the same value in `actual` (objects recursively; arrays element by element, of the
// same length). `where` names the place for the failure message.
void ExpectSubset(const json& expected, const json& actual, const std::string& where) {
  if (expected.is_object()) {
    ASSERT_TRUE(actual.is_object()) << where << ": expected an object, got " << actual.dump();
    for (auto& [key, value] : expected.items()) {
      ASSERT_TRUE(actual.contains(key)) << where << "." << key << ": missing in " << actual.dump();
      ExpectSubset(value, actual[key], where + "." + key);
    }
  } else if (expected.is_array() && !expected.empty() && expected[0].is_object()) {
    ASSERT_TRUE(actual.is_array() && actual.size() == expected.size())
        << where << ": expected " << expected.size() << " entries, got " << actual.dump();
    for (size_t i = 0; i < expected.size(); ++i) ExpectSubset(expected[i], actual[i], where + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(actual, expected) << where;
  }
}

class SoloScenario : public ::testing::TestWithParam<fs::path> {};

TEST_P(SoloScenario, MatchesHandComputedOutcome) {
  std::ifstream in(GetParam());
  const json doc = json::parse(in);
  const json& expect = doc.at("expect");
  auto record = ParseRecord(doc.at("record"));
  ASSERT_TRUE(record.ok()) << record.error();
  auto replay = Replay(*record, GetParam().parent_path());
  ASSERT_TRUE(replay.ok()) << replay.error();
  const json out = json::parse(PlayDocument(*replay).dump());
  SCOPED_TRACE(doc.value("name", ""));

  std::map<int, json> rejected;
  for (const json& s : expect.value("steps", json::array())) rejected[s.at("i").get<int>()] = s;
  for (const json& step : out["steps"]) {
    const int i = step["i"];
    auto it = rejected.find(i);
    if (it == rejected.end()) {
      EXPECT_TRUE(step["ok"].get<bool>()) << "step " << i << " rejected: " << step.dump()
                                          << "\naction: " << doc["record"]["actions"][i].dump();
      continue;
    }
    EXPECT_FALSE(step["ok"].get<bool>()) << "step " << i << " should be rejected: " << doc["record"]["actions"][i].dump();
    if (it->second.contains("code")) {
      EXPECT_EQ(step.value("code", "ok"), it->second["code"]) << "step " << i << ": " << step.dump();
    }
    if (it->second.contains("why")) {
      EXPECT_EQ(step.value("why", ""), it->second["why"]) << "step " << i;
    }
  }
  if (expect.contains("turns")) ExpectSubset(expect["turns"], out["turns"], "turns");
  testing::ExpectFinalState(expect, out["final"]);
  if (expect.contains("solo")) ExpectSubset(expect["solo"], out["final"]["solo"], "final.solo");
  EXPECT_EQ(replay->game.CheckConsistency(), "");
}

std::string Name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Solo, SoloScenario, ::testing::ValuesIn(SoloScenarioFiles()), Name);

// Every numbered rule of the SoloPlay text, every end-game item and every rating has a scenario, and each board
// has a complete game played to its rating.
TEST(SoloScenarioCoverage, EveryNumberedRule) {
  std::set<std::string> covered;
  for (const auto& file : SoloScenarioFiles()) {
    std::ifstream in(file);
    const json doc = json::parse(in);
    for (const json& c : doc.value("covers", json::array())) covered.insert(c.get<std::string>());
  }
  const char* rules[] = {"setup 1",
                         "setup 2",
                         "setup 3",
                         "setup 3a",
                         "setup 3b",
                         "setup 4",
                         "setup 5a",
                         "setup 5b",
                         "setup 5c",
                         "setup 5d",
                         "setup 5 extra round",
                         "setup 6a-i wizards",
                         "setup 6a-ii orcs",
                         "setup 6a-iii tritons",
                         "setup 6a-iv sorcerers",
                         "setup 6a-v dwarves",
                         "setup 6a-vi halflings",
                         "setup 6a-vii giants",
                         "setup 6a-viii skeletons",
                         "setup 6a-ix humans",
                         "setup 6b-i mounted",
                         "setup 6b-ii pillaging",
                         "setup 6b-iii commando",
                         "setup 6b-iv hill",
                         "setup 6b-v underworld",
                         "setup 6b-vi diplomat",
                         "setup 6b-vii swamp",
                         "setup 6b-viii flying",
                         "setup 6b-ix dragon_master",
                         "setup 6b-x seafaring",
                         "setup 6b-xi forest",
                         "setup 6c-i",
                         "setup 6c-ii",
                         "setup 6c-iii",
                         "setup 6c-iii-1a",
                         "setup 6c-iii-1b",
                         "setup 6c-iii-1c",
                         "setup 6c-iv-1",
                         "setup 6c-iv-2a",
                         "setup 6c-iv-2b",
                         "setup 6d-i",
                         "setup 6d-ii-1",
                         "setup 6d-ii-1a",
                         "setup 6d-ii-2",
                         "setup 6d-ii-3",
                         "setup 6d-iii",
                         "setup 7",
                         "setup 8",
                         "play 1a",
                         "play 1a-i-1",
                         "play 1a-i-2",
                         "play 1a-ii-1",
                         "play 1a-iii-1",
                         "play 1a-iii-2",
                         "play 2a",
                         "play 2a-i",
                         "play 2a-i-2",
                         "play 2b",
                         "play 2b-i",
                         "play 2b-ii",
                         "play 2b-iii",
                         "play 2c",
                         "play 3a",
                         "play 3a-i",
                         "play 4a-i",
                         "play 4a-ii",
                         "play 4a-ii-1a",
                         "play 5a",
                         "play 5a-i",
                         "play 6a-i",
                         "play 6a-ii",
                         "play 6a-iii",
                         "play 7",
                         "end 1a",
                         "end 1b",
                         "end 1c",
                         "end 1d",
                         "end 1e",
                         "end 1f-i",
                         "end 1f-ii",
                         "rating 1",
                         "rating 2",
                         "rating 3",
                         "rating 4",
                         "rating 5",
                         "rating 6",
                         "game 2p",
                         "game 3p",
                         "game 4p",
                         "game 5p"};
  for (const char* rule : rules) EXPECT_TRUE(covered.count(rule)) << "no solo scenario covers " << rule;
}

}  // namespace
}  // namespace swref::engine
