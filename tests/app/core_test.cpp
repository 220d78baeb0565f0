#include <gtest/gtest.h>

#include "app/core/demo.h"
#include "app/core/engine_bench.h"
#include "app/core/hash.h"
#include "app/core/play.h"

namespace swref::core {
namespace {

TEST(Sha256Hex, KnownVector) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ReplayRecordFile, TheShippedExample) {
  auto replay = ReplayRecordFile(std::string(SWREF_SOURCE_DIR) + "/examples/first-game.json");
  ASSERT_TRUE(replay.ok()) << replay.error();
  const auto doc = engine::PlayDocument(*replay);
  EXPECT_EQ(doc["final"]["coins"]["Ann"], 25);
  EXPECT_EQ(doc["final"]["coins"]["Bob"], 12);
  EXPECT_EQ(doc["steps"][4]["code"], "not_adjacent");
  EXPECT_EQ(doc["steps"][12]["code"], "not_enough_tokens");
  EXPECT_EQ(doc["steps"][12]["why"], "region 13 needs 6 tokens: 2 + 4 defending tokens; 3 placed");
  EXPECT_EQ(doc["turns"].size(), 4u);
}

TEST(ReplayRecordFile, NamesTheFileOfAMissingRecord) {
  auto replay = ReplayRecordFile("/nonexistent/game.json");
  ASSERT_FALSE(replay.ok());
  EXPECT_EQ(replay.error(), "/nonexistent/game.json: cannot open the record");
}

TEST(RunDemo, FlagsTwoIllegalConquestsAndFinishes) {
  auto demo = RunDemo(7);
  ASSERT_TRUE(demo.ok()) << demo.error();
  ASSERT_EQ(demo->flags.size(), 2u);
  EXPECT_EQ(demo->flags[0].code, "not_enough_tokens");
  EXPECT_EQ(demo->flags[1].code, "not_adjacent");
  EXPECT_EQ(demo->turns.size(), 20u);  // 10 rounds x 2 players
  // The record it makes replays to the same coins.
  auto replay = engine::Replay(demo->record, ".");
  ASSERT_TRUE(replay.ok());
  for (const auto& [name, coins] : demo->final_coins) EXPECT_EQ(engine::PlayDocument(*replay)["final"]["coins"][name], coins);
}

TEST(RunDemo, SameSeedSameGame) {
  auto a = RunDemo(3), b = RunDemo(3);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(engine::ToJson(a->record), engine::ToJson(b->record));
}

TEST(RunEngineBench, SignatureIsDeterministic) {
  EngineBenchOptions options;
  options.games = 20;
  options.check_batches = 2;
  const EngineBenchReport a = RunEngineBench(options), b = RunEngineBench(options);
  EXPECT_EQ(a.signature, b.signature);
  EXPECT_EQ(a.signature.size(), 16u);
  options.seed = 2;
  EXPECT_NE(RunEngineBench(options).signature, a.signature);
  EXPECT_GT(a.games_per_second, 0);
  EXPECT_GT(a.check_ns_median, 0);
}

}  // namespace
}  // namespace swref::core
