// Measuring Explain on a game whose truth is known (docs/referee.md, "Explaining a board change").
//
// The table script's still boards (table_script.h) are fed to Explain in order, as a camera would report them,
// with the off-board events in between, exactly as the referee will run:
//   - pick, decline, ally, end_turn are applied to the referee's game as told; a die face is kept for Explain
//     until a conquest uses it (or the turn ends);
//   - kExplained: the reading is applied; kIllegal: a flag, nothing applied (the take-back scene follows);
//     kNoChange, kPending: nothing; kQuestion: answered as the players would, with the option that is the truth
//     (an illegal option on an attempt scene is then a flag); when no option is, the players spread the stacks
//     and the board is read again, perfectly;
//   - at an end_turn the game refuses for tokens left in hand, the last board is read again with
//     ExplainContext::turn_ending (a redeploy hidden by stacks).
// After every scene the referee's game is compared with the record's replay (board, hands, coins, banners; in
// SoloPlay also the opposition's setup, the tokens kept, the combos and the races in decline); when they differ it
// is counted and the referee's game is reset to the truth, so one miss does not spoil the rest.
// With `merge_rate`, some moves are never seen still, so that the next board holds several actions.
// Observations are perfect, or with stacks hidden: a region of 2 or more tokens is, at `stack_rate`, seen as a
// neat stack of 2-4 whose count is only a lower bound (the stack counted as 1), keyed by what the region holds so
// that an unchanged region looks the same from scene to scene.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/explain.h"
#include "engine/inject.h"
#include "engine/record.h"
#include "engine/result.h"

namespace swref::engine {

struct MeasureOptions {
  bool hide_stacks = false;   // see stacks as lower bounds (false: perfect observations)
  double stack_rate = 0.3;    // the share of regions of 2+ tokens seen as a stack, when hide_stacks
  uint64_t seed = 1;          // which regions are stacked, which scenes are merged
  double merge_rate = 0;      // the share of moves the camera misses (no still moment before the next move of
                              // the same turn, no event in between): Explain then reads two or more actions at once
  ExplainContext context;     // the options of Explain (its die is managed by the measurement)
};

struct FlagCount {
  int expected = 0;           // illegal conquests shown on the table
  int found = 0;              // flagged on their attempt scene (directly or as an answered question)
  int same_code = 0;          // ... with the code the rules give the injected action
};

struct ExplainFigures {
  int scenes = 0;                                  // boards given to Explain
  int merged = 0;                                  // moves not seen still (merge_rate)
  std::array<int, 5> results{};                    // Explain calls (scenes, re-reads) by ExplainKind
  int answered = 0;                                // questions answered with the truth
  int unanswerable = 0;                            // questions whose options did not hold the truth
  int flags_raised = 0;                            // kIllegal results (and answered questions that flag)
  int flags_right = 0;                             // ... on a scene that shows an illegal conquest
  FlagCount flags;                                 // all illegal conquests
  std::array<FlagCount, kIllegalKindCount> by_kind{};  // the injected ones, by kind
  int recounted = 0;                               // questions settled by spreading the stacks (a perfect reading)
  int turn_end_reads = 0;                          // boards read again at an end_turn, tokens being left in hand
  int turns = 0;                                   // turns ended
  int turns_exact = 0;                             // ... whose coins equal the replay's
  int turns_clean = 0;                             // ... and with no reset to the truth during the turn
  int resets = 0;                                  // scenes after which the referee's game differed from the truth
  int games_ended = 0;                             // games played to their end
  int results_exact = 0;                           // ... whose result (coins; SoloPlay: end items, opposition, rating)
                                                   // the referee's game gives as the replay does
  std::vector<double> us;                          // the time of every Explain call, µs
  std::vector<std::string> notes;                  // the first differences, for diagnosis

  void Add(const ExplainFigures& other);
};

// Runs the referee over `record` (maps relative to the working directory); `injected` (may be empty) names the
// kinds of its illegal conquests. Errors only when the game cannot start.
Result<ExplainFigures> MeasureExplain(const Record& record, const std::vector<InjectedFlag>& injected, const MeasureOptions& options);

// The observation of `board` a camera gives with hidden stacks (MeasureOptions): each region's stack is keyed by
// the seed, the region and what it holds.
ObservedBoard HideStacks(const Board& board, double stack_rate, uint64_t seed);

}  // namespace swref::engine
