// A count arrangement the camera could not see, amended where it was made (app/core/hidden_arrangement.h).
#include <gtest/gtest.h>

#include <algorithm>

#include "app/core/hidden_arrangement.h"
#include "app/core/journal.h"
#include "app/core/verify.h"
#include "engine/random_game.h"
#include "journal_fixture.h"

namespace swref::core {
namespace {

using testing::TempDir;

struct Swap {
  int owner = -1, race = -1, from = -1, to = -1;
};

// One token of a player's active race (not the current player's) moved from a region holding 2 or more to another
// of its regions: the board as the camera shows it after a redeployment it could not see.
std::optional<Swap> FindSwap(const engine::Game& game) {
  for (int owner = 0; owner < static_cast<int>(game.players().size()); ++owner) {
    const int race = game.players()[owner].active;
    if (race < 0 || owner == game.current_player()) continue;
    Swap s{owner, race};
    for (int i = 0; i < static_cast<int>(game.board().size()); ++i) {
      const engine::RegionState& r = game.board()[i];
      if (r.race != race || r.decline || r.tokens == 0) continue;
      if (s.from < 0 && r.tokens >= 2) s.from = i;
      else if (s.to < 0) s.to = i;
    }
    if (s.from >= 0 && s.to >= 0) return s;
  }
  return std::nullopt;
}

engine::ObservedBoard Moved(const engine::Game& game, const Swap& s, int to_extra = 1) {
  engine::ObservedBoard seen = engine::ObserveBoard(game.board());
  seen.regions[s.from].tokens -= 1;
  seen.regions[s.to].tokens += to_extra;
  return seen;
}

bool SameBoard(const engine::Game& a, const engine::Game& b) {
  return engine::ObserveBoard(a.board()).regions == engine::ObserveBoard(b.board()).regions;
}

TEST(HiddenArrangement, AmendsTheTurnThatLeftTheTokensAsSeen) {
  int tried = 0, found = 0, checked_in_a_record = 0, with_withdrawals = 0;
  for (const char* key : {"2p", "3p", "4p"}) {
    auto map = engine::BuiltinMap(key);
    ASSERT_TRUE(map.ok());
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      auto played = engine::PlayRandomGame(*map, seed);
      ASSERT_TRUE(played.ok()) << played.error();
      engine::Record header = played->record;
      header.actions.clear();
      auto timeline = GameTimeline::Start(header, ".");
      ASSERT_TRUE(timeline.ok()) << timeline.error();
      for (size_t k = 0; k < played->record.actions.size(); ++k) {
        timeline->Apply(played->record.actions[k]);
        if (k % 4 != 3 || timeline->game().finished()) continue;
        const auto swap = FindSwap(timeline->game());
        if (!swap) continue;
        ++tried;
        const engine::ObservedBoard seen = Moved(timeline->game(), *swap);
        // A token more or fewer on the race's regions is no rearrangement.
        EXPECT_FALSE(FindHiddenArrangement(*timeline, Moved(timeline->game(), *swap, 2)));
        EXPECT_FALSE(FindHiddenArrangement(*timeline, Moved(timeline->game(), *swap, 0)));
        const auto a = FindHiddenArrangement(*timeline, seen);
        if (!a) continue;  // a later action would not be taken again (a conquest's cost changed)
        ++found;
        SCOPED_TRACE(std::string(key) + " seed " + std::to_string(seed) + " action " + std::to_string(k) + ": " + a->text);
        EXPECT_EQ(a->owner, swap->owner);
        EXPECT_EQ(a->race, swap->race);
        EXPECT_EQ(a->regions, (std::vector<int>{std::min(swap->from, swap->to), std::max(swap->from, swap->to)}));
        ASSERT_FALSE(a->redo.empty());
        EXPECT_EQ(a->redo[0].type, engine::ActionType::kRedeploy);
        EXPECT_EQ(a->redo[0].player, swap->owner);
        // The amended game reads as seen everywhere, and is what taking back and making again gives.
        for (int i = 0; i < seen.size(); ++i) EXPECT_TRUE(engine::ReadsAs(a->after->board()[i], seen.regions[i])) << "region " << i;
        GameTimeline again = *timeline;
        for (int u = 0; u < a->undo; ++u) ASSERT_TRUE(again.Undo());
        for (const engine::Action& act : a->redo) ASSERT_TRUE(again.Apply(act).applied());
        EXPECT_TRUE(SameBoard(again.game(), *a->after));
        EXPECT_EQ(again.game().scores().size(), timeline->game().scores().size());
        // The defenders' withdrawals after the turn's redeployment are made again after the amended one.
        with_withdrawals += a->redo.size() > 1 && a->redo[1].type == engine::ActionType::kWithdraw;
        // Through a journal, as the referee commits it, in one write: a failed write changes nothing; then the
        // record verifies and its game is the amended one.
        if (checked_in_a_record++ < 3) {
          TempDir dir;
          bool full = false;
          JournalOptions o;
          o.write = [&](const std::filesystem::path& path, std::string_view content) {
            return full ? engine::WriteOutcome{false, path.string() + ": no space left (test)"} : testing::FastReplace(path, content);
          };
          auto j = Journal::Create(dir / "g.json", header, nlohmann::json::object(), o);
          ASSERT_TRUE(j.ok()) << j.error();
          for (size_t i = 0; i <= k; ++i) ASSERT_TRUE(j->AppendAction(played->record.actions[i]).ok());
          const int entries = j->size();
          const std::vector<engine::Action> standing = j->actions();
          full = true;
          EXPECT_FALSE(j->AppendAmendment(a->undo, a->redo, "amended: " + a->text).ok());
          EXPECT_EQ(j->size(), entries);
          EXPECT_EQ(j->actions().size(), standing.size());
          EXPECT_TRUE(SameBoard(j->game(), timeline->game()));
          full = false;
          ASSERT_EQ(j->Retry(), "");
          auto seq = j->AppendAmendment(a->undo, a->redo, "amended: " + a->text);
          ASSERT_TRUE(seq.ok()) << seq.error();
          EXPECT_EQ(*seq, entries);
          EXPECT_EQ(j->kind(entries), EntryKind::kUndo);
          auto v = VerifyRecordFile(dir / "g.json");
          ASSERT_TRUE(v.ok()) << v.error();
          EXPECT_TRUE(SameBoard(j->game(), *a->after));
        }
      }
    }
  }
  // Most such boards are explained (213 of 225 when written); the rest had a later action that the amendment
  // changes (a conquest's cost). 14 of the turns amended had defenders' withdrawals after their redeployment.
  EXPECT_GE(tried, 100);
  EXPECT_GE(found * 10, tried * 9) << found << " of " << tried;
  EXPECT_GT(with_withdrawals, 0);
  EXPECT_GE(checked_in_a_record, 3);
}

TEST(HiddenArrangement, NeverTheCurrentPlayersOwnRace) {
  auto map = engine::BuiltinMap("2p");
  ASSERT_TRUE(map.ok());
  auto played = engine::PlayRandomGame(*map, 5);
  ASSERT_TRUE(played.ok());
  engine::Record header = played->record;
  header.actions.clear();
  auto timeline = GameTimeline::Start(header, ".");
  ASSERT_TRUE(timeline.ok());
  int checked = 0;
  for (const engine::Action& action : played->record.actions) {
    timeline->Apply(action);
    const engine::Game& g = timeline->game();
    if (g.finished()) break;
    const int race = g.players()[g.current_player()].active;
    if (race < 0) continue;
    int from = -1, to = -1;
    for (int i = 0; i < static_cast<int>(g.board().size()); ++i) {
      const engine::RegionState& r = g.board()[i];
      if (r.race != race || r.decline || r.tokens == 0) continue;
      if (from < 0 && r.tokens >= 2) from = i;
      else if (to < 0) to = i;
    }
    if (from < 0 || to < 0) continue;
    engine::ObservedBoard seen = engine::ObserveBoard(g.board());
    seen.regions[from].tokens -= 1, seen.regions[to].tokens += 1;
    EXPECT_FALSE(FindHiddenArrangement(*timeline, seen));  // its own redeployment is read as the turn goes
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace swref::core
