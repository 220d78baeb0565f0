// The legal-action enumeration agrees with Game::Check, and rejected actions change nothing.
#include "engine/legal.h"

#include <gtest/gtest.h>

#include "engine/random_game.h"
#include "engine/replay.h"
#include "engine/rng.h"

namespace swref::engine {
namespace {

// On every map: what is listed is legal, every outright conquest the rules allow is listed, and so is every attempt
// with the die (a reinforcement, or a Berserk roll) the rules allow where the tokens in hand alone cannot take the
// region (Berserk: wherever), for each face. (The enumeration tries the die only after the outright conquest was
// refused for want of tokens: this checks that no other refusal hides a legal attempt.)
TEST(EnumerateLegal, AgreesWithCheckAlongRandomGames) {
  Rng rng(11);
  int states = 0, checked = 0, checked_die = 0;
  std::vector<Action> legal;
  for (const char* key : {"2p", "3p", "4p", "5p"}) {
    auto map = BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    const std::vector<std::string> names = {"P1", "P2", "P3", "P4", "P5"};
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      std::string failure;
      auto listed = [&](const Action& c) {
        return std::any_of(legal.begin(), legal.end(), [&](const Action& a) {
          return a.type == ActionType::kConquer && a.region == c.region && a.with == c.with && a.die == c.die;
        });
      };
      auto observe = [&](const Game& g, const Action&) {
        if (!failure.empty() || rng.Below(3) != 0) return;
        ++states;
        EnumerateLegal(g, &legal);
        for (const Action& a : legal)
          if (g.Check(a) != Code::kOk) failure = "listed action is illegal: " + ToJson(a, names).dump();
        Action c;
        c.type = ActionType::kConquer;
        c.player = g.current_player();
        for (c.region = 0; c.region < g.map().size(); ++c.region) {
          for (With w : {With::kNone, With::kDragon, With::kSorcery, With::kGhouls}) {
            c.with = w;
            c.die = -1;
            ++checked;
            const bool ok = g.Check(c) == Code::kOk;
            if (ok != listed(c)) failure = "conquest of region " + std::to_string(c.region) + " legal=" + std::to_string(ok);
            if (w == With::kDragon || w == With::kSorcery) continue;
            const int race = w == With::kGhouls ? g.DeclinedGhouls(c.player) : g.players()[c.player].active;
            const bool berserk = w != With::kGhouls && race >= 0 && g.civs()[race].power == Power::kBerserk;
            if (ok && !berserk) continue;
            for (c.die = 0; c.die < 4; ++c.die) {
              ++checked_die;
              const bool die_ok = g.Check(c) == Code::kOk;
              if (die_ok != listed(c))
                failure = "attempt on region " + std::to_string(c.region) + " with face " + std::to_string(c.die) +
                          " legal=" + std::to_string(die_ok);
            }
          }
        }
      };
      auto game = PlayRandomGame(*map, seed, observe);
      ASSERT_TRUE(game.ok()) << game.error();
      ASSERT_EQ(failure, "") << key << " seed " << seed;
    }
  }
  EXPECT_GT(states, 1000);
  EXPECT_GT(checked, 20000);
  EXPECT_GT(checked_die, 20000);
}

TEST(Game, RandomIllegalActionsChangeNothing) {
  auto map = BuiltinMap("4p");
  ASSERT_TRUE(map.ok());
  Rng rng(5);
  int rejected = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    auto played = PlayRandomGame(*map, seed);
    ASSERT_TRUE(played.ok());
    auto game = StartGame(played->record, ".");
    ASSERT_TRUE(game.ok());
    Game g = std::move(*game);
    for (const Action& real : played->record.actions) {
      for (int k = 0; k < 3; ++k) {
        Action a;
        a.type = static_cast<ActionType>(rng.Below(kActionTypeCount));
        a.player = static_cast<int>(rng.Below(4));
        a.region = static_cast<int>(rng.Below(45)) - 2;
        a.slot = static_cast<int>(rng.Below(8)) - 1;
        a.tokens = rng.Below(2) ? -1 : static_cast<int>(rng.Below(6));
        a.die = rng.Below(2) ? -1 : static_cast<int>(rng.Below(4));
        a.with = static_cast<With>(rng.Below(4));
        a.target = static_cast<int>(rng.Below(6)) - 2;
        a.decline = rng.Below(4) == 0;
        if (rng.Below(2)) a.placement = {{static_cast<int>(rng.Below(40)), static_cast<int>(rng.Below(4))}};
        if (g.Check(a) == Code::kOk) continue;
        ReplayResult before{{}, g};
        const nlohmann::ordered_json doc = PlayDocument(before);
        const Verdict v = g.Apply(a);
        ASSERT_FALSE(v.ok());
        ASSERT_FALSE(v.why.empty()) << ToString(v.code);
        ReplayResult after{{}, g};
        ASSERT_EQ(PlayDocument(after), doc) << ToString(v.code) << ": " << v.why;
        ++rejected;
      }
      ASSERT_TRUE(g.Apply(real).ok());
    }
  }
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace swref::engine
