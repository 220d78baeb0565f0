// Explain in a SoloPlay game (engine/explain.h, docs/solo.md "Refereeing a solo game"): each kind of solo move read
// back from the board it leaves, the illegal ones flagged with the rules' code and sentence, and the readings no
// solo action can make asked about. The game is examples/solo-2p.json, cut after some of its actions.
#include <gtest/gtest.h>

#include <fstream>

#include "engine/explain.h"
#include "engine/record.h"

namespace swref::engine {
namespace {

using nlohmann::json;

json Example() {
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/examples/solo-2p.json");
  return json::parse(in);
}

// The example game after its first `n` actions (each must be accepted).
Game SoloAfter(size_t n) {
  json doc = Example();
  doc["actions"] = json(std::vector<json>(doc["actions"].begin(), doc["actions"].begin() + static_cast<long>(n)));
  auto record = ParseRecord(doc);
  EXPECT_TRUE(record.ok()) << record.error();
  auto game = StartGame(*record, ".");
  EXPECT_TRUE(game.ok()) << game.error();
  Game g = std::move(*game);
  for (const Action& a : record->actions) {
    const Verdict v = g.Apply(a);
    EXPECT_TRUE(v.ok()) << v.why << " at " << ToJson(a, {"Ann"}).dump();
  }
  return g;
}

int OppositionRegion(const Game& g) {
  for (int i = 0; i < g.map().size(); ++i)
    if (g.board()[i].HasRace() && g.board()[i].owner == kOpposition && g.board()[i].tokens > 1) return i;
  return -1;
}

// Opposition regions have owner 1 while the game has one player: their owner is named, never read out of range.
TEST(ExplainSolo, AnOppositionRegionLosingTokensIsAQuestionNamingTheOpposition) {
  const Game g = SoloAfter(23);  // round 2 has begun
  const int region = OppositionRegion(g);
  ASSERT_GE(region, 0);
  ObservedBoard seen = ObserveBoard(g.board());
  seen.regions[region].tokens -= 1;
  const Explanation e = Explain(g, seen);
  EXPECT_EQ(e.kind, ExplainKind::kQuestion);
  EXPECT_EQ(e.regions, std::vector<int>{region});
  EXPECT_NE(e.text.find("the opposition"), std::string::npos) << e.text;
}

}  // namespace
}  // namespace swref::engine
