// A SoloPlay game in the referee's record (docs/solo.md, "Refereeing a solo game"): journaled with a flagged second
// redeployment taken back, verified, its end entry carrying the solo result that `swref play` gives; and the script
// of a solo game (the turns of the player only).
#include <gtest/gtest.h>

#include <fstream>

#include "app/core/demo.h"
#include "app/core/journal.h"
#include "app/core/verify.h"
#include "engine/replay.h"
#include "tests/app/journal_fixture.h"

namespace swref::core {
namespace {

using nlohmann::json;

engine::Record Example() {
  std::ifstream in(std::string(SWREF_SOURCE_DIR) + "/examples/solo-2p.json");
  auto record = engine::ParseRecord(json::parse(in));
  EXPECT_TRUE(record) << record.error();
  return *record;
}

TEST(SoloJournal, FlaggedRedeployTakenBackAndTheResultVerified) {
  testing::TempDir dir;
  const engine::Record record = Example();
  engine::Record header = record;
  header.actions.clear();
  JournalOptions options;
  options.write = testing::FastReplace;
  auto journal = Journal::Create(dir / "solo.json", header, json::object(), options);
  ASSERT_TRUE(journal) << journal.error();
  for (size_t k = 0; k < record.actions.size(); ++k) {
    if (k == 28) {  // after the move 11 -> 6 of round 2, a second move: flagged, then taken back
      engine::Action second;
      second.type = engine::ActionType::kRedeploy;
      second.move = {6, 11, 1};
      auto flag = journal->AppendFlag(second);
      ASSERT_TRUE(flag) << flag.error();
      ASSERT_TRUE(journal->AppendResolution(*flag, false, "taken back"));
      EXPECT_FALSE(journal->AppendResolution(*flag, true, "").ok());  // and it could not have stood as a house ruling
    }
    auto commit = journal->AppendAction(record.actions[k]);
    ASSERT_TRUE(commit) << commit.error();
    ASSERT_TRUE(commit->step.verdict.ok()) << k << ": " << commit->step.verdict.why;
  }
  ASSERT_TRUE(journal->game().finished());
  auto verified = VerifyRecordFile(dir / "solo.json");
  ASSERT_TRUE(verified) << verified.error();
  EXPECT_EQ(verified->integrity, Integrity::kVerified) << verified->problem;
  std::ifstream in(dir / "solo.json");
  const json doc = json::parse(in);
  const json& end = doc["journal"].back();
  ASSERT_EQ(end["kind"], "end");
  ASSERT_TRUE(end["data"].contains("solo"));
  EXPECT_EQ(end["data"]["solo"], json(engine::SoloResult(verified->replay->game)));
  EXPECT_EQ(end["data"]["solo"]["rating"].dump(), engine::SoloDocument(verified->replay->game)["rating"].dump());
  EXPECT_FALSE(end["data"]["solo"]["rating"].is_null());
}

TEST(SoloJournal, ScriptCountsThePlayersTurnsOnly) {
  auto script = ScriptReport(Example());
  ASSERT_TRUE(script) << script.error();
  EXPECT_EQ(script->turns.size(), 8u);  // the opposition's setup is not a turn
  EXPECT_EQ(script->turns.front().round, 1);
  EXPECT_TRUE(script->flags.empty());
}

}  // namespace
}  // namespace swref::core
