// The measurement of Explain (engine/explain_measure.h, docs/referee.md): 20 generated full games per official map
// with illegal conquests of every kind injected, their table scripts fed to Explain as perfect observations and
// with stacks hidden as lower bounds. Prints the figures; fails below the targets of the issue (flags precision
// >= 99 %, recall >= 95 %, coins exact in every turn).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "engine/explain_measure.h"
#include "engine/inject.h"

namespace swref::engine {
namespace {

constexpr int kMeasuredGamesPerMap = 20;

ExplainFigures MeasureMaps(bool hide_stacks, bool ask_hidden_counts = true, double merge_rate = 0) {
  ExplainFigures all;
  for (const std::string& key : BuiltinMapKeys()) {
    auto map = BuiltinMap(key);
    EXPECT_TRUE(map.ok());
    for (int g = 0; g < kMeasuredGamesPerMap; ++g) {
      auto game = PlayInjectedGame(*map, 1000 + g);
      EXPECT_TRUE(game.ok()) << game.error();
      MeasureOptions options;
      options.hide_stacks = hide_stacks;
      options.seed = g;
      options.context.ask_hidden_counts = ask_hidden_counts;
      options.merge_rate = merge_rate;
      auto figures = MeasureExplain(game->record, game->flags, options);
      EXPECT_TRUE(figures.ok()) << figures.error();
      all.Add(*figures);
    }
  }
  return all;
}

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[static_cast<size_t>(q * (v.size() - 1))];
}

void Print(const char* title, const ExplainFigures& f) {
  std::printf("%s: %d scenes (%d moves not seen still), %d Explain calls: no_change %d, explained %d, illegal %d, question %d, pending %d\n",
              title, f.scenes, f.merged, static_cast<int>(f.us.size()), f.results[0], f.results[1], f.results[2], f.results[3], f.results[4]);
  std::printf("  questions answered %d (truth among the options), settled by spreading stacks %d, unanswerable %d; "
              "re-read at end_turn %d\n", f.answered, f.recounted, f.unanswerable, f.turn_end_reads);
  std::printf("  flags: raised %d, right %d (precision %.1f %%); illegal conquests %d, flagged %d (recall %.1f %%), same code %d\n",
              f.flags_raised, f.flags_right, 100.0 * f.flags_right / std::max(1, f.flags_raised), f.flags.expected, f.flags.found,
              100.0 * f.flags.found / std::max(1, f.flags.expected), f.flags.same_code);
  for (int k = 0; k < kIllegalKindCount; ++k)
    if (f.by_kind[k].expected > 0)
      std::printf("    %-24s %3d / %3d flagged, %3d same code\n", std::string(ToString(static_cast<IllegalKind>(k))).c_str(),
                  f.by_kind[k].found, f.by_kind[k].expected, f.by_kind[k].same_code);
  std::printf("  turns %d: coins exact %d, and without a reset %d; resets to the truth %d\n", f.turns, f.turns_exact, f.turns_clean, f.resets);
  std::printf("  Explain: median %.1f us, p99 %.1f us, max %.1f us\n", Percentile(f.us, 0.5), Percentile(f.us, 0.99), Percentile(f.us, 1.0));
}

void ExpectTargets(const ExplainFigures& f) {
  EXPECT_GE(f.flags_right, 0.99 * f.flags_raised);
  EXPECT_GE(f.flags.found, 0.95 * f.flags.expected);
  EXPECT_EQ(f.turns_exact, f.turns);
  for (int k = 0; k < kStandardIllegalKindCount; ++k) EXPECT_GT(f.by_kind[k].expected, 0) << ToString(static_cast<IllegalKind>(k));
  // Explain's time is printed (Print), not asserted: `swref bench referee` measures the latency.
}

TEST(ExplainMeasure, PerfectObservations) {
  const ExplainFigures f = MeasureMaps(false);
  Print("perfect observations", f);
  ExpectTargets(f);
  EXPECT_EQ(f.resets, 0);
  EXPECT_EQ(f.unanswerable, 0);
}

TEST(ExplainMeasure, StacksHiddenAsLowerBounds) {
  const ExplainFigures f = MeasureMaps(true);
  Print("stacks hidden (30 % of regions of 2+ tokens)", f);
  ExpectTargets(f);
}

}  // namespace
}  // namespace swref::engine

namespace swref::engine {
namespace {

// The same, with a conquest onto a stack assumed to hold its cost when the hand has it, rather than asked: fewer
// questions, and a conquest with too few tokens hidden in a stack goes unflagged.
TEST(ExplainMeasure, StacksHiddenAndCostsAssumed) {
  const ExplainFigures f = MeasureMaps(true, false);
  Print("stacks hidden, costs assumed (ask_hidden_counts off)", f);
  ExpectTargets(f);
}

}  // namespace
}  // namespace swref::engine

namespace swref::engine {
namespace {

// Half the moves that could be missed are never seen still: Explain reads two or more actions in one change.
TEST(ExplainMeasure, MovesMergedIntoOneChange) {
  const ExplainFigures f = MeasureMaps(false, true, 0.5);
  Print("perfect observations, half the moves not seen still", f);
  ExpectTargets(f);
  EXPECT_GT(f.merged, 1000);
}

}  // namespace
}  // namespace swref::engine

namespace swref::engine {
namespace {

// SoloPlay (docs/solo.md, "Refereeing a solo game"): random solo games on every official map with illegal solo actions
// slipped in, fed to Explain as perfect observations; every flag, every turn's coins and every game's result
// (end items, the opposition's total, the rating) checked.
constexpr int kSoloGamesPerMap = 20;

TEST(ExplainMeasure, SoloGames) {
  ExplainFigures all;
  for (const std::string& key : BuiltinMapKeys()) {
    auto map = BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    for (int g = 0; g < kSoloGamesPerMap; ++g) {
      auto game = PlayInjectedSoloGame(*map, 2000 + g);  // the seeds of docs/solo.md's figures
      ASSERT_TRUE(game.ok()) << game.error();
      MeasureOptions options;
      options.seed = g;
      auto figures = MeasureExplain(game->record, game->flags, options);
      ASSERT_TRUE(figures.ok()) << figures.error();
      all.Add(*figures);
    }
  }
  Print("solo games, perfect observations", all);
  std::printf("  games %d: results exact %d\n", all.games_ended, all.results_exact);
  for (const std::string& n : all.notes) std::printf("  note: %s\n", n.c_str());  // the misses, for diagnosis
  EXPECT_GE(all.flags_right, 0.99 * all.flags_raised);
  EXPECT_GE(all.flags.found, 0.95 * all.flags.expected);
  EXPECT_EQ(all.turns_exact, all.turns);
  EXPECT_EQ(all.games_ended, 4 * kSoloGamesPerMap);
  EXPECT_EQ(all.results_exact, all.games_ended);
  for (int k = kStandardIllegalKindCount; k < kIllegalKindCount; ++k)
    EXPECT_GT(all.by_kind[k].expected, 0) << ToString(static_cast<IllegalKind>(k));
  EXPECT_LT(Percentile(all.us, 0.5), 2000.0);
}

}  // namespace
}  // namespace swref::engine
