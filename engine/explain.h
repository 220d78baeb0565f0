// Explain (pipeline step 5, docs/referee.md): the game actions that turned the last committed board into a newly
// observed still board, each judged by the rules.
//
// Input: the committed game (its board, hands and turn), the observed board, and the off-board facts already
// told that the board cannot show (a die face rolled for the next conquest). Output, one of:
//   kNoChange   the board reads as the committed one;
//   kExplained  a sequence of legal actions explains it: apply reading.actions in order (ApplyReading);
//   kIllegal    no legal sequence does; reading is the most plausible one and verdict() its first rejection,
//               the code and sentence Game::Apply gives (e.g. "region 13 needs 6 tokens: 2 + 4 defending
//               tokens; 3 placed"). Nothing is committed: the players take it back (the referee then sees the
//               committed board again) or accept it as a house ruling (ApplyReading with house = true);
//   kQuestion   the players must settle it: `options` lists the readings the rules cannot tell apart (never a
//               silent choice), or `regions` names readings the rules call impossible (likely vision mistakes:
//               a lost tribe coming back, an opponent's region losing tokens, a low-confidence reading), or
//               regions whose counts the rules need and stacks hide (at the end of a turn, the Amazons' 4
//               conquest-only tokens leave the board, or defenders place withdrawn tokens, but every region they
//               could have left or reached reads as a lower bound);
//   kPending    a consistent in-between state that needs no action yet: the active player readying (tokens
//               lifted into hand) or placing tokens from hand before the redeploy is complete.
//
// Method: the readings are built from the difference between the boards (regions newly held by the active race
// → conquests with the tokens seen; own regions emptied → abandons or the redeploy's zeros; counts moved among own
// regions → the redeploy; an opponent's regions gaining tokens → withdrawals; the active race on its decline side
// → decline; the dragon moved → a conquest with the dragon; a lone opponent token replaced by one Sorcerer →
// a conversion; in-decline Ghouls in a new region → a Ghoul conquest; a race from the column → its pick), in the
// turn's order, conquests ordered greedily so that each is legal when it comes (other orders of up to 4 targets
// when the greedy one is not). Every
// reading is simulated on a copy of the game (an illegal conquest as a house ruling) and kept only if the result
// reads as the observation (explain_match.h: uncertain counts as lower bounds, tokens in hand free). Uncertain
// counts are filled from the rules: a redeploy places exactly the race's tokens (conservation, when the turn ends);
// a conquest onto a stack seen from above takes at least its cost when the hand allows it (or asks, ExplainContext).
// Preference: legal readings first, then those using the told die, then exact fits, then the fewest actions;
// several equally good legal readings that leave different games, or an illegal reading with fewer actions that
// fits exactly, are a question.
//
// Bound: at most `max_readings` readings are simulated per call (64 by default: a few variants of the redeploy,
// the die, the Sorcerers' conversions, the hidden counts, other conquest orders); a typical call simulates 2-6
// and takes about 10 µs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/action.h"
#include "engine/game.h"
#include "engine/observed.h"

namespace swref::engine {

enum class ExplainKind : uint8_t { kNoChange, kExplained, kIllegal, kQuestion, kPending };
std::string_view ToString(ExplainKind kind);

struct ExplainedAction {
  Action action;
  Verdict verdict;       // as the rules give it at this point of the sequence
  bool judged = true;    // false: follows an action the game could not take, so the rules could not judge it
};

// One way the board change could have happened.
struct Reading {
  std::vector<ExplainedAction> actions;
  int illegal = -1;          // index of the first rejected action, or -1
  bool die_used = false;     // the told die face went into one of the conquests
  bool exact = true;         // the result reads as the observation region by region (else: tokens in hand, loose)
  bool hidden_count = false; // a conquest's count was filled above a stack's seen lower bound to meet its cost
};

struct Explanation {
  ExplainKind kind = ExplainKind::kNoChange;
  Reading reading;               // kExplained, kIllegal (and kPending: empty)
  std::vector<Reading> options;  // kQuestion: the readings to choose from (empty when the question is about regions)
  std::vector<int> regions;      // kQuestion, kPending: the regions it is about
  std::string text;              // for people: the question, what is pending, or the rejection's sentence
  int simulated = 0;             // readings simulated
  bool bounded = false;          // the bound stopped the search before every variant was tried

  const Verdict& verdict() const;  // kIllegal: the first rejected action's verdict (else an ok verdict)
};

struct ExplainContext {
  int die = -1;                  // a die face told and not yet used by a conquest (-1: none)
  bool ask_hidden_counts = true; // a conquest onto a stack whose seen lower bound is below the cost: a question
                                 // (true) or the count the rules need, when the hand has it (false)
  int max_readings = 64;         // the search bound: readings simulated per call
  bool die_final = false;        // SoloPlay: another die is told while this one is unused: a failed attempt that used it
                                 // is read now, even before its tokens are back (ask again with the last board)
  bool turn_ending = false;      // the players said the turn ends: tokens in hand must be on the board now, so a
                                 // redeploy hidden by stacks is read by conservation (ask again with the last board
                                 // when the game refuses end_turn for tokens in hand)
};

Explanation Explain(const Game& committed, const ObservedBoard& seen, const ExplainContext& context = {});

// Commits a reading: every action through Game::Apply; with `house`, a rejected conquest is applied as a house
// ruling (Game::ApplyHouseRuling, marked `house_ruling` in `applied`). Stops at the first action the game does
// not take and returns its verdict; else an ok verdict. `applied` (optional) receives the actions taken.
Verdict ApplyReading(Game* game, const Reading& reading, bool house = false, std::vector<Action>* applied = nullptr);

// For the app layer: {"kind", "text", "actions": [record actions with "ok"/"code"/"why"], "options", "regions"}.
nlohmann::ordered_json ToJson(const Explanation& explanation, const std::vector<std::string>& players);

}  // namespace swref::engine
