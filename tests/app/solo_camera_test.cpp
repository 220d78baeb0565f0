// A SoloPlay game refereed from the table camera's frames, end to end (issue 8): a seeded solo game on the
// 2-player map with illegal solo actions slipped in (engine::PlayInjectedSoloGame: setup attacks, an attack from a
// region that does not neighbour its target, a move to a region that does not neighbour its source) is
// photographed at 1280x720 (hands, a bump, each illegal action put down and taken back), the table set up and the
// tokens enrolled from those photos, and the referee follows the frames and the player's events; the players answer
// its questions, and flags raised on a misreading, from the frames' truth (truth_players.h). The refereed game must
// end as scripted: every flag, every turn's coins, the end items and the rating.
#include <gtest/gtest.h>

#include "app/core/camera_demo.h"
#include "app/core/demo.h"
#include "engine/inject.h"
#include "engine/map.h"
#include "tests/app/journal_fixture.h"

namespace swref::core {
namespace {

TEST(SoloCamera, ASoloGameRefereedFromTheCameraEndsAsScripted) {
  testing::TempDir dir;
  auto map = engine::BuiltinMap("2p");
  ASSERT_TRUE(map) << map.error();
  auto injected = engine::PlayInjectedSoloGame(*map, 1);
  ASSERT_TRUE(injected) << injected.error();
  auto script = ScriptReport(injected->record);
  ASSERT_TRUE(script) << script.error();
  ASSERT_GE(script->flags.size(), 3u) << "the game has illegal solo actions to flag";
  ASSERT_FALSE(script->solo_result.empty());

  CameraDemoOptions options;
  options.seed = 1;
  options.frame = {1280, 720};
  options.work_dir = (dir.path() / "work").string();
  auto run = RefereeScript(*script, options);
  ASSERT_TRUE(run) << run.error();
  std::string differences;
  for (const std::string& d : run->differences) differences += "\n  " + d;
  EXPECT_TRUE(run->differences.empty()) << differences;
  EXPECT_EQ(run->flags_matched, static_cast<int>(script->flags.size()));
  EXPECT_EQ(run->flags_same_code, static_cast<int>(script->flags.size()));
  EXPECT_EQ(run->turns_exact, static_cast<int>(script->turns.size()));
  EXPECT_EQ(run->solo_result, script->solo_result);
  EXPECT_GT(run->run.frames, 100) << "every frame was taken";
  EXPECT_GT(run->run.observed, 30) << "every new still board was observed";
}

}  // namespace
}  // namespace swref::core
