// Games with injected illegal conquests (engine/inject.h): every kind appears, each is rejected with the code
// recorded, and nothing else in the record is.
#include <gtest/gtest.h>

#include <set>

#include "engine/inject.h"
#include "engine/replay.h"

namespace swref::engine {
namespace {

TEST(Inject, EveryKindOverAFewGames) {
  std::set<IllegalKind> seen;
  for (const std::string key : {"2p", "5p"}) {
    auto map = BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      auto game = PlayInjectedGame(*map, seed);
      ASSERT_TRUE(game.ok()) << game.error();
      auto replay = Replay(game->record, ".");
      ASSERT_TRUE(replay.ok()) << replay.error();
      std::set<int> flagged;
      for (const InjectedFlag& f : game->flags) {
        seen.insert(f.kind);
        flagged.insert(f.step);
        EXPECT_EQ(replay->steps[f.step].code, f.code) << key << " seed " << seed << " step " << f.step;
        EXPECT_EQ(game->record.actions[f.step].type, ActionType::kConquer);
      }
      for (size_t i = 0; i < replay->steps.size(); ++i) {
        if (!flagged.count(static_cast<int>(i))) {
          EXPECT_TRUE(replay->steps[i].ok()) << key << " seed " << seed << " step " << i;
        }
      }
      EXPECT_TRUE(replay->game.finished());
    }
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kStandardIllegalKindCount));
}

TEST(Inject, KindsGiveTheirCodes) {
  auto map = BuiltinMap("3p");
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    auto game = PlayInjectedGame(*map, seed);
    ASSERT_TRUE(game.ok()) << game.error();
    for (const InjectedFlag& f : game->flags) {
      switch (f.kind) {
        case IllegalKind::kTooFewTokens: EXPECT_EQ(f.code, Code::kNotEnoughTokens); break;
        case IllegalKind::kNotAdjacent: EXPECT_EQ(f.code, Code::kNotAdjacent); break;
        case IllegalKind::kNotEntryRegion: EXPECT_EQ(f.code, Code::kNotEdgeEntry); break;
        case IllegalKind::kImmuneRegion: EXPECT_EQ(f.code, Code::kImmuneRegion); break;
        case IllegalKind::kWaterWithoutSeafaring: EXPECT_EQ(f.code, Code::kWaterNotAllowed); break;
        case IllegalKind::kDeclineTurn: EXPECT_EQ(f.code, Code::kWrongPhase); break;
        case IllegalKind::kDragonMisuse: EXPECT_EQ(f.code, Code::kPowerNotAvailable); break;
        case IllegalKind::kSorcererMisuse: EXPECT_TRUE(f.code == Code::kBadTarget || f.code == Code::kPowerNotAvailable); break;
        default:
          ADD_FAILURE() << "a SoloPlay kind in a standard game: " << ToString(f.kind);
      }
    }
  }
}

TEST(Inject, Deterministic) {
  auto map = BuiltinMap("2p");
  auto a = PlayInjectedGame(*map, 9), b = PlayInjectedGame(*map, 9);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ToJson(a->record), ToJson(b->record));
  EXPECT_EQ(a->flags.size(), b->flags.size());
  EXPECT_EQ(ToString(IllegalKind::kWaterWithoutSeafaring), "water_without_seafaring");
}

}  // namespace
}  // namespace swref::engine
