// Property tests of SoloPlay: seeded random solo games on each official map; after every action the invariants
// hold (the state's consistency check, coins change only by a pick's price, a turn's score and the end items,
// the opposition's score only while it is placed, immune regions never change hands), every game ends with a
// rating, and its record replays to the same state.
#include <gtest/gtest.h>

#include "engine/random_game.h"
#include "engine/replay.h"

namespace swref::engine {
namespace {

constexpr int kSoloGamesPerMap = 300;

class RandomSoloGames : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomSoloGames, InvariantsHoldAfterEveryAction) {
  auto map = BuiltinMap(GetParam());
  ASSERT_TRUE(map.ok()) << map.error();
  long long actions = 0, conquests = 0, erosions = 0, declines = 0;
  std::map<std::string, int> ratings;
  for (uint64_t seed = 1; seed <= kSoloGamesPerMap; ++seed) {
    std::string failure;
    int coins = 5, opposition = 0, picks = 0;
    bool setup = true;  // the action observed was made during the setup
    std::vector<std::pair<int, int>> immune;
    auto observer = [&](const Game& g, const Action& a) {
      ++actions;
      conquests += a.type == ActionType::kConquer;
      erosions += a.type == ActionType::kErode;
      declines += a.type == ActionType::kEndTurn && a.decline;
      if (!failure.empty()) return;
      const std::string where = "map " + GetParam() + " seed " + std::to_string(seed) + " action " + std::to_string(actions) + " " +
                                std::string(ToString(a.type)) + ": ";
      if (std::string s = g.CheckConsistency(); !s.empty()) failure = where + s;
      const int delta = g.players()[0].coins - coins;
      if (a.type == ActionType::kPick) {
        if (delta != -(a.slot + (picks >= 3 ? 5 : 0))) failure = where + "a pick cost " + std::to_string(-delta);
        ++picks;
      } else if (a.type == ActionType::kEndTurn && !setup) {
        const int end = g.solo()->ended ? g.solo()->end.total() : 0;
        if (delta != g.scores().back().coins.total() + end) failure = where + "coins changed by other than the turn's score";
      } else if (delta != 0) {
        failure = where + "coins changed outside scoring and picking";
      }
      if (!setup && g.solo()->OppositionTotal() != opposition) failure = where + "the opposition scored after the setup";
      for (auto [r, race] : immune)
        if (g.board()[r].race >= 0 && g.board()[r].race != race) failure = where + "immune region " + std::to_string(r) + " changed hands";
      coins = g.players()[0].coins, opposition = g.solo()->OppositionTotal();
      setup = g.solo()->phase == SoloPhase::kSetup;
      immune.clear();
      for (int r = 0; r < g.map().size(); ++r)
        if (g.board()[r].Immune()) immune.emplace_back(r, g.board()[r].race);
    };
    auto game = PlayRandomSoloGame(*map, seed, observer);
    ASSERT_TRUE(game.ok()) << game.error();
    ASSERT_EQ(failure, "") << failure;
    ASSERT_TRUE(game->game.finished());
    ASSERT_TRUE(game->game.solo()->ended);
    EXPECT_EQ(game->game.round(), 8);
    ++ratings[std::string(ToString(game->game.SoloRating()))];
  }
  RecordProperty("actions", std::to_string(actions));
  EXPECT_GT(conquests, actions / 4) << "random solo games should be mostly conquests";
  EXPECT_GT(erosions, kSoloGamesPerMap) << "random solo games should erode races in decline";
  EXPECT_GT(declines, kSoloGamesPerMap) << "random solo games should decline";
}

INSTANTIATE_TEST_SUITE_P(Maps, RandomSoloGames, ::testing::Values("2p", "3p", "4p", "5p"));

TEST(RandomSoloGames, DeterministicAndReplayable) {
  auto map = BuiltinMap("4p");
  for (uint64_t seed : {7u, 8u}) {
    auto a = PlayRandomSoloGame(*map, seed), b = PlayRandomSoloGame(*map, seed);
    ASSERT_TRUE(a.ok() && b.ok()) << a.error() << b.error();
    EXPECT_EQ(ToJson(a->record), ToJson(b->record));
    auto reparsed = ParseRecord(ToJson(a->record));
    ASSERT_TRUE(reparsed.ok()) << reparsed.error();
    auto replay = Replay(*reparsed, ".");
    ASSERT_TRUE(replay.ok()) << replay.error();
    for (const Verdict& v : replay->steps) ASSERT_TRUE(v.ok()) << v.why;
    ReplayResult direct{{}, a->game};
    EXPECT_EQ(PlayDocument(*replay)["final"], PlayDocument(direct)["final"]);
  }
}

}  // namespace
}  // namespace swref::engine
