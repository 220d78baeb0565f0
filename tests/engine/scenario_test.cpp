// Scenario tests: small hand-written records (tests/engine/scenarios/*.json) replayed through the engine and
// compared with exact expected verdicts, coins and regions, like perft positions with exact node counts.
// Each scenario names the rulings, races and powers it covers; the expectations were derived by hand from the
// rulebook and rules/RULINGS.md, independently of the engine.
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

std::vector<fs::path> ScenarioFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(SWREF_SOURCE_DIR) / "tests/engine/scenarios"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

class Scenario : public ::testing::TestWithParam<fs::path> {};

TEST_P(Scenario, MatchesHandComputedOutcome) {
  std::ifstream in(GetParam());
  const json doc = json::parse(in);
  const json& expect = doc.at("expect");
  auto record = ParseRecord(doc.at("record"));
  ASSERT_TRUE(record.ok()) << record.error();
  auto replay = Replay(*record, GetParam().parent_path());
  ASSERT_TRUE(replay.ok()) << replay.error();
  const json out = json::parse(PlayDocument(*replay).dump());
  SCOPED_TRACE(doc.value("name", "") + (doc.contains("notes") ? "\nnotes: " + doc["notes"].dump() : ""));

  std::map<int, json> rejected;
  for (const json& s : expect.value("steps", json::array())) rejected[s.at("i").get<int>()] = s;
  for (const json& step : out["steps"]) {
    const int i = step["i"];
    auto it = rejected.find(i);
    if (it == rejected.end()) {
      EXPECT_TRUE(step["ok"].get<bool>()) << "step " << i << " " << record->actions.size() << " actions; rejected: " << step.dump()
                                          << "\naction: " << doc["record"]["actions"][i].dump();
    } else {
      EXPECT_EQ(step["ok"], it->second.value("ok", false)) << "step " << i << ": " << step.dump();
      if (it->second.contains("code")) {
        EXPECT_EQ(step.value("code", "ok"), it->second["code"]) << "step " << i << ": " << step.dump();
      }
    }
  }
  if (expect.contains("turns")) {
    EXPECT_EQ(out["turns"], expect["turns"]) << "turns";
  }
  testing::ExpectFinalState(expect, out["final"]);
  EXPECT_EQ(replay->game.CheckConsistency(), "");
}

std::string Name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Rules, Scenario, ::testing::ValuesIn(ScenarioFiles()), Name);

// Every ruling of RULINGS.md, every race and every power has at least one scenario.
TEST(ScenarioCoverage, EveryRulingRaceAndPower) {
  std::set<std::string> covered;
  for (const auto& file : ScenarioFiles()) {
    std::ifstream in(file);
    const json doc = json::parse(in);
    for (const json& c : doc.value("covers", json::array())) covered.insert(c.get<std::string>());
  }
  for (int i = 1; i <= 28; ++i) EXPECT_TRUE(covered.count("RULINGS " + std::to_string(i))) << "no scenario covers RULINGS " << i;
  for (int r = 0; r < kRaceCount; ++r)
    EXPECT_TRUE(covered.count("race " + std::string(Info(static_cast<Race>(r)).id))) << "no scenario covers race " << Info(static_cast<Race>(r)).id;
  for (int p = 0; p < kPowerCount; ++p)
    EXPECT_TRUE(covered.count("power " + std::string(Info(static_cast<Power>(p)).id))) << "no scenario covers power " << Info(static_cast<Power>(p)).id;
}

}  // namespace
}  // namespace swref::engine
