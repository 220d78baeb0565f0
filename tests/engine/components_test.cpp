#include "engine/components.h"

#include <gtest/gtest.h>

namespace swref::engine {
namespace {

TEST(Components, RaceTokensAddUpToTheBox) {
  int total = 0;
  for (int r = 0; r < kRaceCount; ++r) total += Info(static_cast<Race>(r)).box_tokens;
  EXPECT_EQ(total, 168);
}

TEST(Components, NoComboNeedsMoreTokensThanTheBoxHolds) {
  for (int r = 0; r < kRaceCount; ++r)
    for (int p = 0; p < kPowerCount; ++p)
      EXPECT_LE(StartingTokens(static_cast<Race>(r), static_cast<Power>(p)), Info(static_cast<Race>(r)).box_tokens)
          << Info(static_cast<Race>(r)).id << " + " << Info(static_cast<Power>(p)).id;
}

TEST(Components, AmazonsGetFourConquestOnlyTokens) {
  EXPECT_EQ(StartingTokens(Race::kAmazons, Power::kMerchant), 6 + 4 + 2);
  EXPECT_EQ(StartingTokens(Race::kRatmen, Power::kFortified), 8 + 3);
}

TEST(Components, IdsRoundTrip) {
  for (int r = 0; r < kRaceCount; ++r) EXPECT_EQ(RaceFromId(Info(static_cast<Race>(r)).id), static_cast<Race>(r));
  for (int p = 0; p < kPowerCount; ++p) EXPECT_EQ(PowerFromId(Info(static_cast<Power>(p)).id), static_cast<Power>(p));
  for (int p = 0; p < kPieceCount; ++p) EXPECT_EQ(PieceFromId(Info(static_cast<Piece>(p)).id), static_cast<Piece>(p));
  EXPECT_FALSE(RaceFromId("hobbits"));
  EXPECT_EQ(Info(Power::kDragonMaster).id, "dragon_master");
  EXPECT_EQ(Info(Piece::kTrollLair).id, "troll_lair");
}

TEST(Components, DieFaces) {
  int sum = 0;
  for (int f : kDieFaces) sum += f;
  EXPECT_EQ(sum, 6);
  EXPECT_EQ(kDieFaces.size(), 6u);
}

}  // namespace
}  // namespace swref::engine
