// Property tests: seeded random full games on each official map; after every action the invariants of the
// rules hold (tokens conserved per race, coins change only by scoring and combo payments, every held region
// has a token, one non-Spirit race in decline per player, immune regions never change hands).
#include <gtest/gtest.h>

#include "engine/random_game.h"
#include "engine/replay.h"

namespace swref::engine {
namespace {

constexpr int kGamesPerMap = 2000;

struct Watch {
  std::vector<int> coins;
  int coins_on_column = 0;
  std::vector<std::pair<int, int>> immune;  // (region, race) before the action
};

int ColumnCoins(const Game& g) {
  int n = 0;
  for (const Combo& c : g.column()) n += c.coins;
  return n;
}

class RandomGames : public ::testing::TestWithParam<std::string> {};

TEST_P(RandomGames, InvariantsHoldAfterEveryAction) {
  auto map = BuiltinMap(GetParam());
  ASSERT_TRUE(map.ok()) << map.error();
  long long actions = 0, conquests = 0, declines = 0;
  for (uint64_t seed = 1; seed <= kGamesPerMap; ++seed) {
    Watch before;
    std::string failure;
    auto remember = [&](const Game& g) {
      before.coins.clear();
      for (const auto& p : g.players()) before.coins.push_back(p.coins);
      before.coins_on_column = ColumnCoins(g);
      before.immune.clear();
      for (int r = 0; r < g.map().size(); ++r)
        if (g.board()[r].Immune()) before.immune.emplace_back(r, g.board()[r].race);
    };
    auto check = [&](const Game& g, const Action& a) {
      ++actions;
      conquests += a.type == ActionType::kConquer;
      declines += a.type == ActionType::kDecline || (a.type == ActionType::kEndTurn && a.decline);
      if (!failure.empty()) return;
      const std::string where = "map " + GetParam() + " seed " + std::to_string(seed) + " action " + std::string(ToString(a.type)) + ": ";
      if (std::string s = g.CheckConsistency(); !s.empty()) failure = where + s;
      int coin_delta = 0;
      for (int p = 0; p < g.player_count(); ++p) coin_delta += g.players()[p].coins - before.coins[p];
      if (a.type == ActionType::kPick) {
        if (coin_delta + ColumnCoins(g) - before.coins_on_column != 0) failure = where + "a pick created or destroyed coins";
      } else if (a.type == ActionType::kEndTurn) {
        if (coin_delta != g.scores().back().coins.total()) failure = where + "coins changed by other than the turn's score";
      } else if (coin_delta != 0) {
        failure = where + "coins changed outside scoring and picking";
      }
      for (int r = 0; r < g.map().size(); ++r)
        if (g.board()[r].tokens == 0 && g.board()[r].race >= 0) failure = where + "a held region without a token";
      // Immune regions never change hands (their race may leave them by its own decline or abandon).
      for (auto [r, race] : before.immune)
        if (g.board()[r].race >= 0 && g.board()[r].race != race) failure = where + "immune region " + std::to_string(r) + " changed hands";
      remember(g);
    };
    bool first = true;
    auto observer = [&](const Game& g, const Action& a) {
      if (first) {  // the state before the first action: fresh setup
        first = false;
        before.coins.assign(g.player_count(), kStartingCoins);
        before.coins_on_column = 0;
      }
      check(g, a);
    };
    auto game = PlayRandomGame(*map, seed, observer);
    ASSERT_TRUE(game.ok()) << game.error();
    ASSERT_EQ(failure, "") << failure;
    ASSERT_TRUE(game->game.finished());
    ASSERT_FALSE(game->game.Winners().empty());
  }
  RecordProperty("actions", std::to_string(actions));
  EXPECT_GT(conquests, actions / 5) << "random games should be mostly conquests";
  EXPECT_GT(declines, kGamesPerMap) << "random games should decline now and then";
}

INSTANTIATE_TEST_SUITE_P(Maps, RandomGames, ::testing::Values("2p", "3p", "4p", "5p"));

// The same seed gives the same game.
TEST(RandomGames, Deterministic) {
  auto map = BuiltinMap("3p");
  auto a = PlayRandomGame(*map, 42), b = PlayRandomGame(*map, 42);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ToJson(a->record), ToJson(b->record));
}

// A random game's record replays to the same final state (the record is complete).
TEST(RandomGames, RecordReplaysToSameState) {
  auto map = BuiltinMap("4p");
  for (uint64_t seed : {3u, 4u, 5u}) {
    auto g = PlayRandomGame(*map, seed);
    ASSERT_TRUE(g.ok());
    auto reparsed = ParseRecord(ToJson(g->record));
    ASSERT_TRUE(reparsed.ok()) << reparsed.error();
    auto replay = Replay(*reparsed, ".");
    ASSERT_TRUE(replay.ok());
    for (const Verdict& v : replay->steps) ASSERT_TRUE(v.ok()) << v.why;
    ReplayResult direct{{}, g->game};
    EXPECT_EQ(PlayDocument(*replay)["final"], PlayDocument(direct)["final"]);
  }
}

}  // namespace
}  // namespace swref::engine
