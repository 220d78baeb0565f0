// The built-in demo game read back by Explain from its table script (docs/referee.md, "Measured"): both illegal
// conquests flagged with their codes, no other flag, the coins of every turn exact.
#include <gtest/gtest.h>

#include "app/core/demo.h"
#include "engine/explain_measure.h"

namespace swref::core {
namespace {

TEST(DemoExplain, FlagsBothIllegalConquestsAndTalliesEveryTurn) {
  auto demo = RunDemo(7);
  ASSERT_TRUE(demo.ok()) << demo.error();
  for (bool hide : {false, true}) {
    engine::MeasureOptions options;
    options.hide_stacks = hide;
    auto f = engine::MeasureExplain(demo->record, {}, options);
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(f->flags.expected, 2);
    EXPECT_EQ(f->flags.found, 2);
    EXPECT_EQ(f->flags.same_code, 2);
    EXPECT_EQ(f->flags_raised, 2) << (f->notes.empty() ? "" : f->notes[0]);
    EXPECT_EQ(f->turns, static_cast<int>(demo->turns.size()));
    EXPECT_EQ(f->turns_exact, f->turns);
    if (!hide) {
      EXPECT_EQ(f->resets, 0);
    }
  }
}

}  // namespace
}  // namespace swref::core
